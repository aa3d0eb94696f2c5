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

/// `pairing.maxPairedDevices` and `pairing.whenFull` on the simulated air, with real phones and
/// the accessory's pairing store: `refuse` turns one more phone away at bootstrapping;
/// `replaceOldest` pairs it and then forgets the pairing made earliest, in memory and in the
/// store, so that phone's cached keys resolve nothing (docs/reference/profile-reference.md).
@Suite struct PairedDeviceLimitTests {
    /// One accessory with a pairing store in a temporary directory, and phones that join it.
    final class Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 21))
        let directory: String
        let store: PairingStore
        let profile: AccessoryProfile
        var accessory: Accessory
        var displayed: [PINDisplay] = []
        var events: [AccessoryEvent] = []

        init(maxPairedDevices: Int, whenFull: PairingSettings.WhenFull, seeded records: [PairingRecord] = []) throws {
            let path = SessionFixture.directory.deletingLastPathComponent()
                .appendingPathComponent("Profiles/drone.json").path
            var profile = try ProfileLoader.load(path: path)
            profile.pairing?.maxPairedDevices = maxPairedDevices
            profile.pairing?.whenFull = whenFull
            self.profile = profile
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("awb-limit-\(UUID().uuidString.prefix(8))").path
            store = try PairingStore(path: directory)
            for record in records { try store.upsert(record, cap: nil) }
            accessory = Self.accessory(profile, air: air, store: store)
            wire()
            try accessory.start()
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        static func accessory(_ profile: AccessoryProfile, air: SimulatedAir, store: PairingStore) -> Accessory {
            Accessory(
                profile: profile,
                air: air,
                options: AccessoryOptions(seed: 21, pinSource: .seeded),
                pairingStore: store
            )
        }

        func wire() {
            accessory.pinDisplayHandler = { [unowned self] in displayed.append($0) }
            accessory.eventHandler = { [unowned self] in events.append($0) }
        }

        /// The accessory stops and starts again on the same store, as after a power cycle.
        func restart() throws {
            accessory.stop()
            accessory = Self.accessory(profile, air: air, store: store)
            wire()
            try accessory.start()
        }

        func run(_ timeout: Interval, until condition: () -> Bool) -> Bool { air.run(timeout, until: condition) }

        func discover(_ phone: Phone) throws -> DiscoveryResult {
            phone.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active))
            #expect(run(.seconds(10)) { !phone.matchedResults().isEmpty })
            return try #require(phone.matchedResults().last)
        }

        func join(seed: UInt64) throws -> (Phone, DiscoveryResult) {
            let phone = Phone(air: air, seed: seed, position: .init(x: 2, y: Double(seed % 5)))
            try phone.start()
            return (phone, try discover(phone))
        }

        /// Pairs `phone` with the PIN the display shows, or with `pin`.
        func pair(_ phone: Phone, _ result: DiscoveryResult, pin: String? = nil) -> PairingOutcome? {
            let shownBefore = displayed.count
            phone.pairing.pair(
                with: result,
                pin: .now { [unowned self] in
                    pin ?? (displayed.count > shownBefore ? displayed.last?.pin.digits : nil)
                }
            )
            _ = run(.seconds(30)) { phone.pairing.outcome != nil }
            air.virtualScheduler.run(for: .milliseconds(200))
            return phone.pairing.outcome
        }

        /// The phone comes back later with its cached keys and no PIN.
        func reconnect(_ phone: Phone) throws -> PairingOutcome? {
            let result = try discover(phone)
            phone.pairing.dropLink(with: result.publisherAddress)
            phone.pairing.reconnect(with: result)
            _ = run(.seconds(30)) { phone.pairing.outcome != nil }
            air.virtualScheduler.run(for: .milliseconds(200))
            return phone.pairing.outcome
        }

        /// The accessory's stored peers as the file on disk has them now.
        func storedPeers() throws -> [MACAddress] {
            try PairingStore(directory: store.directory).records.map(\.peerNMI)
        }

        func events(named name: String) -> [String] { events.filter { $0.name == name }.map(\.json.serialized) }
    }

    static func record(_ last: UInt8, pairedAt: Int64) -> PairingRecord {
        PairingRecord(
            peerNMI: MACAddress(0x02, 0xB0, 0, 0, 0, last),
            peerNIK: Array(repeating: last, count: 16),
            npk: Array(repeating: last, count: 32),
            akm: .sae,
            cipherSuite: 7,
            pairedAt: pairedAt
        )
    }

    @Test func refuseTurnsAwayOneMorePhoneWithoutAPIN() throws {
        let bench = try Bench(maxPairedDevices: 1, whenFull: .refuse)
        let (first, firstResult) = try bench.join(seed: 31)
        #expect(bench.pair(first, firstResult)?.result == .paired)
        let (second, secondResult) = try bench.join(seed: 32)
        let outcome = try #require(bench.pair(second, secondResult))
        #expect(outcome.result == .failed, "\(outcome)")
        #expect(bench.displayed.count == 1, "no PIN for the phone that was refused")
        let rejected = try #require(bench.events(named: "bootstrap_rejected").first)
        #expect(rejected.contains(#""reason":"paired-device-limit""#) && rejected.contains(#""reasonCode":2"#))
        #expect(bench.events(named: "pairing_replaced").isEmpty)
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [first.address])
        #expect(try bench.storedPeers() == [first.address])
        #expect(try bench.reconnect(first)?.result == .reconnected)
    }

    /// With one pairing at most, the second phone's pairing replaces the first's: the first
    /// phone's reconnect finds no record and the second's succeeds, before and after a restart.
    @Test func replaceOldestForgetsTheFirstPhoneOnceTheSecondIsStored() throws {
        let bench = try Bench(maxPairedDevices: 1, whenFull: .replaceOldest)
        let (first, firstResult) = try bench.join(seed: 31)
        #expect(bench.pair(first, firstResult)?.result == .paired)
        #expect(try bench.storedPeers() == [first.address])

        // A wrong PIN from the second phone: the attempt fails and costs the first nothing.
        let (second, secondResult) = try bench.join(seed: 32)
        #expect(bench.pair(second, secondResult, pin: "000000")?.result == .failed)
        #expect(bench.events(named: "pairing_replaced").isEmpty)
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [first.address])
        #expect(try bench.storedPeers() == [first.address])

        #expect(bench.pair(second, secondResult)?.result == .paired)
        #expect(bench.displayed.count == 3, "a PIN for each of the three attempts")
        let replaced = try #require(bench.events(named: "pairing_replaced").only)
        #expect(replaced.contains("\"peer\":\"\(first.address)\"") && replaced.contains("\"by\":\"\(second.address)\""))
        #expect(replaced.contains(#""maxPairedDevices":1"#))
        // The eviction follows the new pairing's storage, never precedes it.
        let names = bench.events.map(\.name)
        let stored = try #require(names.lastIndex(of: "nik_exchanged"))
        #expect(names.lastIndex(of: "pairing_replaced").map { $0 > stored } == true)
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [second.address])
        #expect(try bench.storedPeers() == [second.address])

        let refused = try #require(try bench.reconnect(first))
        #expect(refused.result == .failed, "\(refused)")
        #expect(bench.events(named: "verification_failed").last?.contains(#""reason":"no-cached-keys""#) == true)
        #expect(try bench.reconnect(second)?.result == .reconnected)

        try bench.restart()
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [second.address])
        #expect(try bench.reconnect(first)?.result == .failed)
        #expect(try bench.reconnect(second)?.result == .reconnected)
    }

    /// The oldest is the pairing made earliest (`pairedAt`), not the first in the store: the
    /// store lists B (paired at 1_700_000_500) before A (1_700_000_100); with two at most, a new
    /// phone replaces A, and the store still says so after a restart.
    @Test func theOldestIsTheEarliestPairedAtWhateverTheStoreOrder() throws {
        let b = Self.record(0x0B, pairedAt: 1_700_000_500)
        let a = Self.record(0x0A, pairedAt: 1_700_000_100)
        let bench = try Bench(maxPairedDevices: 2, whenFull: .replaceOldest, seeded: [b, a])
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [b.peerNMI, a.peerNMI])
        let (phone, result) = try bench.join(seed: 33)
        #expect(bench.pair(phone, result)?.result == .paired)
        let replaced = try #require(bench.events(named: "pairing_replaced").only)
        #expect(replaced.contains("\"peer\":\"\(a.peerNMI)\"") && replaced.contains(#""pairedAt":1700000100"#))
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [b.peerNMI, phone.address])
        #expect(try bench.storedPeers() == [b.peerNMI, phone.address])
        try bench.restart()
        #expect(bench.accessory.pairedPeers.map(\.peerNMI) == [b.peerNMI, phone.address])
    }

    /// A phone that is paired already pairs again in place of its own record: nothing is replaced.
    @Test func aKnownPhonePairingAgainReplacesOnlyItsOwnRecord() throws {
        let a = Self.record(0x0A, pairedAt: 1_700_000_100)
        let bench = try Bench(maxPairedDevices: 2, whenFull: .replaceOldest, seeded: [a])
        let (phone, result) = try bench.join(seed: 34)
        #expect(bench.pair(phone, result)?.result == .paired)
        #expect(bench.pair(phone, result)?.result == .paired)
        #expect(bench.events(named: "pairing_replaced").isEmpty)
        #expect(try bench.storedPeers() == [a.peerNMI, phone.address])
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
