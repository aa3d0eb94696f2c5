import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// `radio.maxDataPathPeers`: how many phones hold data paths with the accessory at once. One more
/// phone's Data Path Request is refused on the air with reason 2, RESOURCE_LIMITATION
/// (nan-wire-reference.md 2.11), while the phones already served keep theirs; a phone that holds
/// an NDL may open another data path (the limit counts phones, not data paths).
@Suite struct DataPathPeerLimitTests {
    final class Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 41))
        let accessory: Accessory
        var displayed: [PINDisplay] = []
        var events: [AccessoryEvent] = []

        init(maxDataPathPeers: Int, maxPairedDevices: Int = 8) throws {
            let path = SessionFixture.directory.deletingLastPathComponent()
                .appendingPathComponent("Profiles/drone.json").path
            var profile = try ProfileLoader.load(path: path)
            profile.radio.maxDataPathPeers = maxDataPathPeers
            profile.pairing?.maxPairedDevices = maxPairedDevices
            accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: 41, pinSource: .seeded))
            accessory.pinDisplayHandler = { [unowned self] in displayed.append($0) }
            accessory.eventHandler = { [unowned self] in events.append($0) }
            try accessory.start()
        }

        func run(_ timeout: Interval, until condition: () -> Bool) -> Bool { air.run(timeout, until: condition) }

        /// A phone that found the accessory and paired with it.
        func pairedPhone(seed: UInt64) throws -> (Phone, DiscoveryResult) {
            let phone = Phone(air: air, seed: seed, position: .init(x: 2, y: Double(seed % 7)))
            try phone.start()
            phone.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active))
            #expect(run(.seconds(10)) { !phone.matchedResults().isEmpty })
            let result = try #require(phone.matchedResults().last)
            phone.pairing.pair(with: result, pin: .now { [unowned self] in displayed.last?.pin.digits })
            _ = run(.seconds(30)) { phone.pairing.outcome != nil }
            air.virtualScheduler.run(for: .milliseconds(200))
            try #require(phone.pairing.outcome?.result == .paired, "\(String(describing: phone.pairing.outcome))")
            return (phone, result)
        }

        func open(_ phone: Phone, _ result: DiscoveryResult) -> DataPathOutcome? {
            let id = phone.dataPaths.open(
                PhoneDataPathRequest(
                    accessory: result.publisherAddress,
                    publishID: result.publishInstanceID,
                    serviceName: result.serviceName,
                    mode: .bulk,
                    security: .paired,
                    servicePort: 7000
                )
            )
            _ = run(.seconds(10)) { phone.dataPaths.outcomes[id] != .pending }
            return phone.dataPaths.outcomes[id]
        }

        func refusals() -> [String] { events.filter { $0.name == "datapath_refused" }.map(\.json.serialized) }
        var servedPhones: Set<MACAddress> { Set(accessory.dataPaths.map(\.peerNMI)) }
    }

    @Test func aThirdPhoneIsRefusedWithReasonTwoWhileTheFirstTwoKeepTheirs() throws {
        let bench = try Bench(maxDataPathPeers: 2)
        var phones: [(Phone, DiscoveryResult)] = []
        for seed: UInt64 in [51, 52, 53] { phones.append(try bench.pairedPhone(seed: seed)) }
        let first = try #require(bench.open(phones[0].0, phones[0].1)?.link)
        let second = try #require(bench.open(phones[1].0, phones[1].1)?.link)
        let third = try #require(bench.open(phones[2].0, phones[2].1))
        #expect(third.link == nil)
        #expect(third.reason == .resourceLimitation, "\(third)")
        #expect(third.reason?.rawValue == 2)
        let refusal = try #require(bench.refusals().last)
        #expect(refusal.contains(#""reason":2"#))
        #expect(refusal.contains("\"peer\":\"\(phones[2].0.address)\""))
        #expect(refusal.contains("already serving data paths to 2 phones at once"))
        // The first two keep their data paths, and their traffic.
        bench.air.virtualScheduler.run(for: .seconds(2))
        #expect(bench.servedPhones == [phones[0].0.address, phones[1].0.address])
        for (phone, link) in [(phones[0].0, first), (phones[1].0, second)] {
            let session = try #require(phone.dataPaths.sessions[link.id])
            #expect((session.arrivals[1]?.count ?? 0) > 60, "telemetry to \(phone.address)")
        }
        // A served phone may open another data path: the limit counts phones.
        let more = try #require(bench.open(phones[0].0, phones[0].1))
        #expect(more.link != nil, "\(more)")
        #expect(bench.accessory.dataPaths.count == 3)
        #expect(bench.servedPhones.count == 2)
    }

    /// When a served phone's data path ends, the next phone is served.
    @Test func aPhoneThatLeavesMakesRoomForTheNext() throws {
        let bench = try Bench(maxDataPathPeers: 1)
        let (first, firstResult) = try bench.pairedPhone(seed: 54)
        let (second, secondResult) = try bench.pairedPhone(seed: 55)
        let link = try #require(bench.open(first, firstResult)?.link)
        #expect(bench.open(second, secondResult)?.reason == .resourceLimitation)
        first.dataPaths.terminate(link.id)
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(bench.accessory.dataPaths.isEmpty)
        #expect(bench.open(second, secondResult)?.link != nil)
        #expect(bench.servedPhones == [second.address])
    }

    /// Eight phones, the most a profile may allow (RadioSettings.maxDataPathPeersRange), hold
    /// data paths with telemetry flowing on each at once; the ninth is refused.
    @Test func eightPhonesAreServedAtOnceAndANinthIsRefused() throws {
        let bench = try Bench(maxDataPathPeers: 8, maxPairedDevices: 9)
        var phones: [(Phone, DiscoveryResult)] = []
        for seed: UInt64 in 60..<69 { phones.append(try bench.pairedPhone(seed: seed)) }
        var links: [NDPLink] = []
        for (phone, result) in phones.prefix(8) {
            let outcome = try #require(bench.open(phone, result))
            links.append(try #require(outcome.link, "\(phone.address): \(outcome)"))
        }
        let ninth = try #require(bench.open(phones[8].0, phones[8].1))
        #expect(ninth.reason == .resourceLimitation, "\(ninth)")
        bench.air.virtualScheduler.run(for: .seconds(5))
        #expect(bench.servedPhones.count == 8)
        for ((phone, _), link) in zip(phones, links) {
            let session = try #require(phone.dataPaths.sessions[link.id])
            // The drone streams telemetry at 60 Hz on flow 1: about 300 in 5 s to each phone.
            let telemetry = session.arrivals[1]?.count ?? 0
            #expect(telemetry > 250, "telemetry datagrams to \(phone.address): \(telemetry)")
        }
    }
}
