import AccessoryKit
import AwareDevice
import AwareProtocol
import AwareWire
import ConformanceKit
import Testing

/// The service's transport as the accessory's Data Path Response names it, and the runner's
/// phone connecting to what it was told: the accessory listens on its profile's port, the phone
/// believes another, and its app traffic goes to the port the response named.
@Suite struct DataPathTransportTests {
    typealias Bench = PairingEndToEndTests.Bench

    /// The drone, listening on 7100 instead of its profile's 7000.
    func drone(port: Int = 7_100, faults: Set<AccessoryFault> = []) throws -> (Bench, DiscoveryResult) {
        let bench = try Bench(faults: faults) { $0.services[0].datapath?.port = port }
        let result = try bench.discover()
        let outcome = try #require(bench.pair(result))
        try #require(outcome.result == .paired, "\(outcome)")
        return (bench, result)
    }

    /// A data path for which the phone believes the service listens on 7000.
    func open(_ bench: Bench, _ result: DiscoveryResult, fallback: Bool = true) throws -> NDPLink {
        let id = bench.phone.dataPaths.open(
            PhoneDataPathRequest(
                accessory: result.publisherAddress,
                publishID: result.publishInstanceID,
                serviceName: result.serviceName,
                servicePort: 7_000,
                fallsBackToServicePort: fallback
            )
        )
        _ = bench.run(.seconds(10)) { bench.phone.dataPaths.outcomes[id] != .pending }
        return try #require(
            bench.phone.dataPaths.outcomes[id]?.link,
            "\(String(describing: bench.phone.dataPaths.outcomes[id]))"
        )
    }

    func pinged(_ bench: Bench, _ session: PhoneDataSession) -> Bool {
        session.send(.ping([7, 1]))
        return bench.run(.seconds(2)) { session.controlMessages.contains(.pong([7, 1])) }
    }

    @Test func thePhonesTrafficGoesToThePortTheResponseNamed() throws {
        let (bench, result) = try drone()
        let link = try open(bench, result)
        #expect(link.peerServiceInfo == GenericServiceProtocol(transportPort: 7_100, transportProtocol: 17))
        let session = try #require(bench.phone.dataPaths.sessions[link.id])
        #expect(session.servicePort == 7_100)
        #expect(pinged(bench, session), "the accessory's app on 7100 answered")
    }

    /// Without a named port the phone uses the profile's only where the request allows it; the
    /// accessory listening elsewhere then never answers, which is why it is only a stand-in.
    @Test func withoutTransportInfoTheProfilePortIsOnlyAStandIn() throws {
        let (bench, result) = try drone(faults: [.noTransportInfo])
        let fallback = try open(bench, result)
        #expect(fallback.peerServiceInfo == nil)
        let session = try #require(bench.phone.dataPaths.sessions[fallback.id])
        #expect(session.servicePort == 7_000)
        #expect(!pinged(bench, session), "nothing listens on 7000")
        let strict = try open(bench, result, fallback: false)
        #expect(strict.peerServiceInfo == nil)
        #expect(bench.phone.dataPaths.sessions[strict.id] == nil, "no port to connect to")
    }

    /// The fault names TCP for the drone's `_udp` service; the port is still right.
    @Test func theWrongProtocolFaultSaysTCPForAUDPService() throws {
        let (bench, result) = try drone(port: 7_000, faults: [.wrongTransportProtocol])
        let link = try open(bench, result)
        #expect(link.peerServiceInfo?.transportProtocol == 6)
        #expect(link.peerServiceInfo?.transportPort == 7_000)
    }

    /// The camera's `_cam-stream._tcp` on 8554: TCP (6).
    @Test func aTCPServiceIsNamedTCP() throws {
        let bench = try Bench(profileName: "camera")
        let result = try bench.discover("_cam-stream._tcp")
        try #require(bench.pair(result)?.result == .paired)
        let link = try open(bench, result)
        #expect(result.serviceName == "_cam-stream._tcp")
        #expect(link.peerServiceInfo == GenericServiceProtocol(transportPort: 8_554, transportProtocol: 6))
    }
}
