import AwareCore
import AwareProtocol
import AwareWire
import Foundation

extension PairingSuite {
    /// Shared machinery for the pairing and reconnect tests.
    struct Builder: Sendable {
        let target: any AccessoryTarget
        let faults: [String]

        func test(
            _ id: String,
            _ title: String,
            tags: [String] = [],
            requires: [TestRequirement] = [],
            needsRestart: Bool = false,
            needsReconfigure: Bool = false,
            needsFactoryReset: Bool = false,
            needsEventLog: Bool = false,
            needsProtectedFrames: Bool = false,
            budget: Interval = .seconds(90),
            brokenBy: [FaultName],
            steps: [SharedStep],
            _ body: @escaping @Sendable (TestContext, Builder) throws -> Void
        ) throws -> ConformanceTest {
            let builder = self
            return try ConformanceTest(
                id: id,
                title: title,
                tags: ["pairing"] + tags,
                requires: [.pairing] + requires,
                needsRestart: needsRestart,
                needsReconfigure: needsReconfigure,
                needsFactoryReset: needsFactoryReset,
                needsEventLog: needsEventLog,
                needsProtectedFrames: needsProtectedFrames,
                budget: budget,
                faultContract: FaultContract(brokenBy: brokenBy, steps: steps)
            ) { context in try body(context, builder) }
        }

        /// A profile variant that sets keys under `pairing`, e.g. `("pin.lockoutSeconds", "3")`.
        static func pairingVariant(_ settings: [(path: String, json: String)]) -> ProfileVariant {
            ProfileVariant(
                settings.map {
                    .setField(path: ["pairing"] + $0.path.split(separator: ".").map(String.init), json: $0.json)
                }
            )
        }

        /// Opens a scenario; a variant on a target that cannot reconfigure skips the test.
        func open(_ context: TestContext, variant: ProfileVariant? = nil) throws -> Scenario {
            if let variant, case .unavailable(let reason) = context.capabilities.reconfigure {
                try context.skip("needs a profile variant (\(variant)); \(reason)")
            }
            let request = SessionRequest(seed: context.seed, variant: variant, faults: faults)
            return try Scenario(context, target: target, request: request)
        }

        /// The service the phone pairs through: the profile's first.
        func serviceName(_ context: TestContext) throws -> String {
            try context.require(context.capabilities.profile?.services.first?.name, "the profile has a service")
        }

        /// Subscribes afresh (ending an earlier subscribe to the service) and returns the first
        /// matched result of the new subscribe: after a restart, what the accessory says now.
        func discover(
            _ context: TestContext,
            _ scenario: Scenario,
            phone: Phone? = nil,
            service: String? = nil,
            timeout: Interval? = nil
        ) throws -> DiscoveryResult {
            let timeout = timeout ?? context.phone.discoveryWindow
            let name = try service ?? serviceName(context)
            let phone = phone ?? scenario.phone
            var before = 0
            scenario.session.perform {
                if let instance = phone.subscribeInstances[name] {
                    phone.device.perform(.cancelSubscribe(instanceID: instance))
                }
                before = phone.results.count
                phone.subscribe(SubscribeConfiguration(serviceName: name, mode: .active))
            }
            let fresh: (Phone) -> DiscoveryResult? = { _ in
                phone.results.dropFirst(before).first { $0.matched && $0.serviceName == name }
            }
            _ = scenario.wait(timeout) { fresh($0) != nil }
            return try context.require(scenario.read(fresh), "the accessory was discovered (\(name))")
        }

        /// Pairs the phone with the accessory of `result`, entering what `pin` makes of the PIN
        /// the accessory shows (by default the PIN itself, as a person types it), and waits for
        /// the outcome. The PIN comes from the target's ``OperatorAccess``: the display, `--pin`,
        /// `--pin-command` or a person; one that cannot be read ends the test as an error, before
        /// frame 1.
        func pair(
            _ context: TestContext,
            _ scenario: Scenario,
            _ result: DiscoveryResult,
            phone: Phone? = nil,
            pin: @escaping @Sendable (String) -> String = { $0 },
            timeout: Interval = PairingSuite.pairingTimeout
        ) throws -> PairingOutcome {
            let phone = phone ?? scenario.phone
            let supply = scenario.pinSupply(phone: phone, transform: pin)
            scenario.session.perform { phone.pairing.pair(with: result, pin: supply) }
            if case .later = supply {
                _ = scenario.wait(timeout) { _ in phone.pairing.outcome != nil || phone.pairing.awaitingPIN }
                if scenario.read({ _ in phone.pairing.awaitingPIN }) {
                    try scenario.enterPIN(phone: phone, result: result, transform: pin)
                }
            }
            return try settle(context, scenario, phone: phone, what: "pairing", timeout: timeout)
        }

        /// Runs pairing verification with the cached keys and waits for the outcome; first the
        /// phone forgets the link's NM-TK, as it does when the accessory went away. A phone whose
        /// profile randomizes its NMI between connections (docs/phones.md) comes back under a
        /// new one and finds the accessory again first: the accessory must know it by its NIK.
        func reconnect(
            _ context: TestContext,
            _ scenario: Scenario,
            _ result: DiscoveryResult,
            dropsLink: Bool = true,
            timeout: Interval = PairingSuite.pairingTimeout
        ) throws -> PairingOutcome {
            var result = result
            if dropsLink, context.phone.addressBetweenConnections == .randomized,
                try scenario.changePhoneAddress()
            {
                result = try discover(context, scenario)
            }
            scenario.withPhone { phone in
                if dropsLink { phone.pairing.dropLink(with: result.publisherAddress) }
                phone.pairing.reconnect(with: result)
            }
            return try settle(context, scenario, phone: scenario.phone, what: "reconnect", timeout: timeout)
        }

        /// Waits for the phone's attempt to end, then a moment more: the accessory hears the
        /// last frame (and reports on it) after the phone decided.
        func settle(
            _ context: TestContext,
            _ scenario: Scenario,
            phone: Phone,
            what: String,
            timeout: Interval
        ) throws -> PairingOutcome {
            _ = scenario.wait(timeout) { _ in phone.pairing.outcome != nil }
            let outcome = scenario.read { _ in phone.pairing.outcome }
            scenario.pass(PairingSuite.settleTime)
            let ended = try context.require(outcome, "the \(what) ended within \(timeout.seconds) s")
            // An accessory the runner does not own keeps the phones that paired before this run
            // (the runner's own phones come back as the same few identities, PhoneIdentityPool).
            // Once other devices have filled its store it rightly refuses more: that is the
            // accessory's state, not a verdict, and nothing the runner may do frees a place.
            if ended.reason == "paired-device-limit", phone === scenario.phone,
                case .unavailable = context.capabilities.reconfigure
            {
                try context.skip(
                    "the accessory's paired-device store is full (maxPairedDevices) with devices other than the "
                        + "runner's phones: free a place on the accessory (for accessory-emu: reset --state-dir DIR, "
                        + "or start it without --state-dir) to run this test"
                )
            }
            context.log(
                "pairing_outcome_seen",
                [
                    "result": .string(ended.result.rawValue), "reason": .string(ended.reason ?? ""),
                    "keysCached": .bool(ended.keysCached),
                ]
            )
            return ended
        }

        /// Opens a scenario, finds the accessory and pairs with it: where most pairing tests
        /// start. The scenario is finished here if any step fails.
        func openPaired(_ context: TestContext, cached: Bool = true) throws -> (Scenario, DiscoveryResult) {
            let scenario = try open(context)
            do {
                let result = try discover(context, scenario)
                try requirePairing(context, scenario, result, cached: cached)
                return (scenario, result)
            } catch {
                scenario.finish()
                throw error
            }
        }

        /// Pairs with the displayed PIN and requires that it worked with keys cached on both sides.
        @discardableResult
        func requirePairing(
            _ context: TestContext,
            _ scenario: Scenario,
            _ result: DiscoveryResult,
            cached: Bool = true
        ) throws -> PairingOutcome {
            let outcome = try pair(context, scenario, result)
            try context.require(
                outcome.result == .paired,
                "pairing with the displayed PIN: expected paired, got \(outcome.result) (\(outcome.reason ?? "-"): "
                    + "\(outcome.detail))"
            )
            if cached {
                try context.require(
                    outcome.keysCached,
                    "pairing with both sides caching keys: expected the NIKs exchanged, got none (\(outcome.detail))"
                )
            }
            return outcome
        }

        /// A PIN surely different from `digits`, and different from what an accessory that
        /// changes its last digit by one would use.
        static func wrongPIN(_ digits: String) -> String {
            guard let last = digits.last?.wholeNumberValue else { return digits + "5" }
            return String(digits.dropLast()) + String((last + 5) % 10)
        }

        /// The accessory's events called `name`, parsed; empty when the target shows none.
        func events(_ scenario: Scenario, named name: String) -> [JSONValue] {
            scenario.session.accessoryEvents.compactMap { line in
                guard let event = try? JSONValue(parsing: line), event["event"]?.stringValue == name else { return nil }
                return event
            }
        }

        /// Whether the target shows the accessory's events (embedded and spawn do).
        func hasEvents(_ scenario: Scenario) -> Bool { !scenario.session.accessoryEvents.isEmpty }

        /// Ends the test as skipped when the target shows no accessory events.
        func requireEvents(_ context: TestContext, _ scenario: Scenario) throws {
            guard hasEvents(scenario) else {
                try context.skip("needs the accessory's event log, which \(target.name) does not show")
            }
        }

        /// The number of PINs shown to the scenario's phone so far (``Scenario/pinsShown(for:)``).
        func pinCount(_ scenario: Scenario) -> Int { scenario.pinsShownToPhone.count }
    }
}
