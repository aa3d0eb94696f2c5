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

/// A phone that comes back under a new NMI (as an iPhone does after its Wi-Fi restarts) and
/// verifies its cached pairing: the accessory moves the pairing to the new NMI and keeps
/// nothing for the old one. Found by `aware-bench soak`, where every other cycle a phone with
/// a new NMI joins: the accessory's NM-TKs grew by one per cycle.
@Suite struct PhoneNMIChangeTests {
    @Test func theAccessoryKeepsNoKeysForAnNMIThePhoneLeftBehind() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 7))
        let path = SessionFixture.directory.deletingLastPathComponent().appendingPathComponent("Profiles/drone.json")
        let profile = try ProfileLoader.load(path: path.path)
        let accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: 7, pinSource: .seeded))
        var displayed: [PINDisplay] = []
        accessory.pinDisplayHandler = { displayed.append($0) }
        try accessory.start()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("phone-nmi-change-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try PairingStore(path: directory.path)

        func run(_ timeout: Interval, until condition: () -> Bool) -> Bool { air.run(timeout, until: condition) }
        func join(seed: UInt64) throws -> (Phone, DiscoveryResult) {
            let phone = Phone(air: air, seed: seed, pairingStore: store)
            try phone.start()
            phone.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active))
            #expect(run(.seconds(10)) { !phone.matchedResults().isEmpty })
            return (phone, try #require(phone.matchedResults().last))
        }

        let (first, result) = try join(seed: 11)
        first.pairing.pair(with: result, pin: .now { displayed.last?.pin.digits })
        _ = run(.seconds(30)) { first.pairing.outcome != nil }
        air.virtualScheduler.run(for: .milliseconds(100))
        #expect(first.pairing.outcome?.result == .paired)
        first.stop()
        var addresses = [first.address]
        for seed: UInt64 in [12, 13] {
            let (phone, found) = try join(seed: seed)
            phone.pairing.reconnect(with: found)
            _ = run(.seconds(30)) { phone.pairing.outcome != nil }
            air.virtualScheduler.run(for: .milliseconds(100))
            #expect(phone.pairing.outcome?.result == .reconnected, "\(String(describing: phone.pairing.outcome))")
            addresses.append(phone.address)
            phone.stop()
        }
        #expect(Set(addresses).count == 3, "each phone has its own NMI")
        #expect(accessory.pairedPeers.map(\.peerNMI) == [addresses[2]])
        #expect(accessory.device.protection.pairedPeers == [addresses[2]])
        #expect(displayed.count == 1, "one PIN, for the first pairing")
    }
}
