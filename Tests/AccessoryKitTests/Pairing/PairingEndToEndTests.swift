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

/// The emulated accessory and the runner's phone pairing on the simulated air: PIN from the
/// display, NIK exchange, reconnect without a PIN, a wrong PIN, protected frames.
@Suite struct PairingEndToEndTests {
    final class Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 5))
        var accessory: Accessory
        let phone: Phone
        var displayed: [PINDisplay] = []
        var events: [AccessoryEvent] = []
        let profile: AccessoryProfile

        /// `adjust` changes the loaded profile before the accessory starts.
        init(
            profileName: String = "drone",
            store: PairingStore? = nil,
            faults: Set<AccessoryFault> = [],
            adjust: (inout AccessoryProfile) -> Void = { _ in }
        ) throws {
            let path = SessionFixture.directory.deletingLastPathComponent()
                .appendingPathComponent("Profiles/\(profileName).json").path
            var profile = try ProfileLoader.load(path: path)
            adjust(&profile)
            self.profile = profile
            accessory = Accessory(
                profile: profile,
                air: air,
                options: AccessoryOptions(seed: 5, faults: faults, pinSource: .seeded),
                pairingStore: store
            )
            phone = Phone(air: air, seed: 9, position: .init(x: 2, y: 0))
            wire(accessory)
            try accessory.start()
            try phone.start()
        }

        func wire(_ accessory: Accessory) {
            accessory.pinDisplayHandler = { [unowned self] in displayed.append($0) }
            accessory.eventHandler = { [unowned self] in events.append($0) }
        }

        func run(for interval: Interval) { air.virtualScheduler.run(until: air.virtualScheduler.now + interval) }

        func run(_ timeout: Interval, until condition: () -> Bool) -> Bool { air.run(timeout, until: condition) }

        func discover(_ service: String = "_drone-service._udp") throws -> DiscoveryResult {
            phone.subscribe(SubscribeConfiguration(serviceName: service, mode: .active))
            #expect(run(.seconds(10)) { !phone.matchedResults().isEmpty })
            return try #require(phone.matchedResults().last)
        }

        func pair(_ result: DiscoveryResult, pin: (() -> String?)? = nil) -> PairingOutcome? {
            phone.pairing.pair(with: result, pin: .now(pin ?? { [unowned self] in displayed.last?.pin.digits }))
            _ = run(.seconds(30)) { phone.pairing.outcome != nil }
            // The accessory hears the last frame a moment after the phone decided.
            run(for: .milliseconds(100))
            return phone.pairing.outcome
        }

        func names() -> [String] { events.map(\.name) }
    }

    @Test func pairsWithTheDisplayedPINAndReconnectsWithoutOne() throws {
        let bench = try Bench()
        let result = try bench.discover()
        let outcome = try #require(bench.pair(result))
        #expect(outcome.result == .paired, "\(outcome)")
        #expect(outcome.keysCached)
        #expect(bench.displayed.count == 1)
        #expect(bench.names().contains("paired") && bench.names().contains("nik_exchanged"))
        #expect(bench.phone.pairing.records.count == 1)
        // Frames between the pair are protected now.
        bench.run(for: .seconds(3))
        #expect(bench.phone.device.protection.counters.protectedReceived > 0)
        #expect(bench.accessory.device.protection.counters.protectedReceived > 0)
        // The link drops; the phone comes back with its cached keys.
        bench.phone.pairing.dropLink(with: result.publisherAddress)
        bench.accessory.device.removePairwiseKey(peer: bench.phone.address)
        let again = try bench.discover()
        bench.phone.pairing.reconnect(with: again)
        #expect(bench.run(.seconds(10)) { bench.phone.pairing.outcome != nil })
        bench.run(for: .milliseconds(100))
        #expect(
            bench.phone.pairing.outcome?.result == .reconnected,
            "\(String(describing: bench.phone.pairing.outcome))"
        )
        #expect(bench.displayed.count == 1, "no PIN for a reconnect")
        #expect(bench.names().contains("reconnected"))
    }

    @Test func replayedPASNFrames1And3AreIgnoredAfterThePairing() throws {
        let bench = try Bench()
        let result = try bench.discover()
        #expect(bench.pair(result)?.result == .paired)
        let sent = bench.phone.pairing.sentPASNFrames
        #expect(sent.count == 2, "the phone sent frames 1 and 3")
        let answersBefore = bench.events.filter { $0.name == "pairing_started" }.count
        for frame in sent { bench.phone.device.transmitFrame(frame) }
        bench.run(for: .seconds(1))
        let replays = bench.events.filter { $0.name == "replay_rejected" }.map { $0.json.serialized }
        #expect(replays.contains { $0.contains("\"frame\":1") } && replays.contains { $0.contains("\"frame\":3") })
        #expect(bench.events.filter { $0.name == "pairing_started" }.count == answersBefore)
        #expect(!bench.names().contains("pairing_failed"))
    }

    @Test func aWrongPINFailsAsAConfirmMismatchAndCounts() throws {
        let bench = try Bench()
        let result = try bench.discover()
        let outcome = try #require(bench.pair(result) { "999999" == "x" ? nil : "000001" })
        #expect(outcome.result == .failed)
        #expect(outcome.reason == "sae-confirm-mismatch")
        let failed = try #require(bench.events.first { $0.name == "pairing_failed" })
        #expect(failed.json.serialized.contains("\"remainingAttempts\":2"))
        #expect(!bench.events.contains { $0.json.serialized.contains(bench.displayed.last?.pin.digits ?? "-") })
    }

    @Test func threeWrongPINsLockPairingUntilTheLockoutEnds() throws {
        let bench = try Bench()
        let result = try bench.discover()
        for _ in 0..<3 { _ = bench.pair(result) { "000001" } }
        #expect(bench.names().contains("pairing_locked"))
        let locked = try #require(bench.pair(result))
        #expect(locked.reason == "locked-out")
        bench.run(for: .seconds(61))
        let recovered = try #require(bench.pair(result))
        #expect(recovered.result == .paired, "\(recovered)")
    }
}
