import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

extension PairingSuite.Builder {
    /// What the accessory must refuse or get over: a method it does not offer, a comeback with
    /// the wrong cookie, PASN without bootstrapping, an aborted exchange, a replayed frame 1,
    /// one device too many (nan-wire-reference.md 2.11, 3).
    func refusals() throws -> [ConformanceTest] {
        [
            try test(
                "WA/PAIR/BI-07",
                "Bootstrapping with a method whose complement the accessory does not offer is rejected",
                tags: ["bootstrapping"],
                brokenBy: ["accept-any-bootstrap-method"],
                steps: [.discovery]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                // The phone asks for a method whose display-side complement the profile does not
                // offer (nan-wire-reference.md 2.11): QR scan, else NFC reader, else passphrase keypad.
                let offered = context.capabilities.profile?.bootstrappingMethods ?? []
                let candidates: [(method: BootstrappingMethods, name: String, complement: String)] = [
                    (.qrCodeScan, "QR code scan", "qrDisplay"), (.nfcReader, "NFC reader", "nfcTag"),
                    (.passphraseKeypad, "passphrase keypad", "passphraseDisplay"),
                ]
                guard let asked = candidates.first(where: { !offered.contains($0.complement) }) else {
                    try context.skip("the profile offers qrDisplay, nfcTag and passphraseDisplay: every complement")
                }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.method = asked.method }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(
                    outcome.result,
                    .failed,
                    "bootstrapping with \(asked.name) (\(asked.complement) not offered)"
                )
                context.expectEqual(outcome.reason, "bootstrap-rejected", "why it failed")
                context.expectEqual(suite.pinCount(scenario), 0, "PINs shown for a refused method")
            },
            try test(
                "WA/PAIR/BI-08",
                "A comeback request with the wrong cookie is refused and shows no pairing",
                tags: ["bootstrapping", "comeback"],
                brokenBy: ["accept-wrong-cookie"],
                steps: [.discovery]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.wrongCookie = true }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .failed, "bootstrapping whose comeback carries another cookie")
                if suite.hasEvents(scenario) {
                    context.expectEqual(suite.events(scenario, named: "paired").count, 0, "accessory events \"paired\"")
                    context.expect(
                        suite.events(scenario, named: "bootstrap_rejected").contains {
                            $0["reason"]?.stringValue == "invalid-comeback"
                        },
                        "the accessory reports bootstrap_rejected with reason invalid-comeback"
                    )
                }
            },
            try test(
                "WA/PAIR/BI-09",
                "PASN pairing from a phone that never bootstrapped is refused",
                tags: ["pasn"],
                brokenBy: ["pasn-without-bootstrap"],
                steps: [.discovery]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.skipsBootstrapping = true }
                scenario.withPhone { phone in phone.pairing.pair(with: result, pin: .now { "000000" }) }
                _ = scenario.wait(PairingSuite.pairingTimeout) { $0.pairing.outcome != nil }
                scenario.pass(PairingSuite.settleTime)
                let outcome = try context.require(scenario.read { $0.pairing.outcome }, "the PASN attempt ended")
                context.expectEqual(outcome.result, .failed, "PASN without bootstrapping (\(outcome.detail))")
                if suite.hasEvents(scenario) {
                    context.expectEqual(suite.events(scenario, named: "paired").count, 0, "accessory events \"paired\"")
                }
            },
            try test(
                "WA/PAIR/BV-10",
                "After the phone aborts mid-pairing, a new pairing succeeds at its first frame 1",
                tags: ["pasn", "abort"],
                brokenBy: ["ignore-pasn-abort"],
                steps: [.pairing, .retriedPairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.abortsAfterFrame2 = true }
                let aborted = try suite.pair(context, scenario, result)
                try context.require(
                    aborted.result == .failed,
                    "the phone aborted after frame 2: expected failed, got \(aborted.result)"
                )
                scenario.withPhone { $0.pairing.options.abortsAfterFrame2 = false }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .paired, "pairing right after an abort (\(outcome.detail))")
                context.expectEqual(
                    scenario.read { $0.pairing.frame1Transmissions },
                    1,
                    "frame 1 transmissions of the pairing after the abort"
                )
            },
            try test(
                "WA/PAIR/BI-13",
                "A replayed PASN frame 1 gets no answer",
                tags: ["pasn", "replay"],
                brokenBy: ["no-replay-check"],
                steps: [.pairing]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context, cached: false)
                defer { scenario.finish() }
                let accessory = result.publisherAddress
                let frame1 = try context.require(
                    scenario.read { $0.pairing.sentPASNFrames.first },
                    "the phone kept the PASN frame 1 it sent"
                )
                let before = suite.pasnFrames(scenario, from: accessory).count
                scenario.withPhone { $0.device.transmitFrame(frame1) }
                scenario.pass(.seconds(2))
                let answers = suite.pasnFrames(scenario, from: accessory).count - before
                context.expectEqual(answers, 0, "PASN frames the accessory sent after a replayed frame 1")
                if suite.hasEvents(scenario) {
                    context.expect(
                        suite.events(scenario, named: "replay_rejected").contains { $0["frame"]?.integerValue == 1 },
                        "the accessory reports replay_rejected for frame 1"
                    )
                }
            },
            try storeFull(),
        ]
    }

    /// PASN Authentication frames `address` sent, as captured.
    /// PASN frames from `address` to this scenario's phone (on a shared air other phones pair too).
    func pasnFrames(_ scenario: Scenario, from address: MACAddress) -> [UInt64] {
        let phone = scenario.phone.address
        return scenario.frames.compactMap { entry in
            guard entry.frame.header.address2 == address, entry.frame.header.address1 == phone,
                case .pasnAuthentication = entry.frame.body
            else {
                return nil
            }
            return entry.time
        }
    }
}

extension PairingSuite.Builder {
    /// The largest paired-device store WA/PAIR/BI-17 fills on an accessory it cannot give a
    /// smaller limit: a bound on its run time (each phone pairs with a PIN first).
    static let largestStoreFilled = 8

    /// WA/PAIR/BI-17: one phone more than the accessory keeps pairing keys for gets what the
    /// profile's `pairing.whenFull` says (ProfileFacts.PairedDeviceLimit; both are legitimate
    /// firmware policy). Where the runner owns the accessory it fills a store of one (a variant
    /// that keeps the profile's policy); where it cannot reconfigure it, it fills the
    /// accessory's own store of N, between two factory resets: the first so that only the
    /// test's phones are in it, the last so that later tests find room.
    func storeFull() throws -> ConformanceTest {
        let largest = Self.largestStoreFilled
        let stated = target.capabilities.profile?.pairedDeviceLimit.map { " of \($0.count)" } ?? ""
        let tooLarge = ProfileCondition(
            "the profile's paired-device store\(stated) is larger than the \(largest) the test fills without a variant"
        ) { ($0?.pairedDeviceLimit?.count ?? 0) > largest }
        let builder = self
        return try ConformanceTest(
            id: "WA/PAIR/BI-17",
            title: "With the paired-device store full, one more phone gets the profile's whenFull: refused as "
                + "paired-device-limit without a PIN, or paired while the oldest pairing is forgotten",
            tags: ["pairing", "store"],
            requires: [.pairing],
            needsReconfigureWhen: tooLarge,
            // Only where the test cannot make its variant; every target that can reconfigure the
            // accessory owns it and resets it too, so the declaration skips nothing that could run.
            needsFactoryReset: true,
            needsProtectedFrames: true,
            // Up to nine phones pair, and under replaceOldest each reconnects.
            budget: .seconds(300),
            wallLimit: .seconds(300),
            // Without the limit the extra phone pairs and the oldest pairing stays: refuse expects a
            // refusal, replaceOldest a failed reconnect of the first phone.
            faultContract: FaultContract(
                brokenBy: ["no-pairing-limit"],
                steps: [.pairedExchange],
                // Under replaceOldest the test reconnects every phone it kept, so what breaks a
                // reconnect breaks it too; and an accessory that keeps keys only in memory never
                // stores the new pairing, so it replaces nothing.
                conditional: [
                    ConditionalFaults(
                        ["no-pairing-advertisement", "no-verification", "stale-nira-tag", "forget-keys-on-restart"],
                        when: ProfileCondition("the profile replaces the oldest pairing when its store is full") {
                            $0?.pairedDeviceLimit?.whenFull == .replaceOldest
                        }
                    )
                ]
            )
        ) { context in try builder.fillStore(context) }
    }

    private func fillStore(_ context: TestContext) throws {
        let profile = try context.require(context.capabilities.profile, "the accessory's profile")
        let limit = try context.require(profile.pairedDeviceLimit, "the profile's paired-device limit")
        let ownsAccessory = context.capabilities.reconfigure.isAvailable
        let count = ownsAccessory ? 1 : limit.count
        let scenario: Scenario
        if ownsAccessory {
            var settings: [(path: String, json: String)] = [("maxPairedDevices", "1")]
            if limit.whenFull != .refuse { settings.append(("whenFull", "\"\(limit.whenFull.rawValue)\"")) }
            scenario = try open(context, variant: Self.pairingVariant(settings))
        } else {
            guard count <= Self.largestStoreFilled else {
                try context.skip(
                    "the profile keeps pairing keys for \(count) phones (pairing.maxPairedDevices), more than the "
                        + "\(Self.largestStoreFilled) the test pairs on an accessory it cannot reconfigure"
                )
            }
            scenario = try open(context)
            do {
                try scenario.factoryResetAccessory()
            } catch {
                scenario.finish()
                throw error
            }
        }
        defer {
            if !ownsAccessory {
                do {
                    try scenario.factoryResetAccessory()
                } catch {
                    context.fail("the closing factory reset failed (later tests may find the store full): \(error)")
                }
            }
            scenario.finish()
        }
        let result = try discover(context, scenario)
        try requirePairing(context, scenario, result)
        var added: [Phone] = []
        defer { scenario.stop(added) }
        var paired: [(phone: Phone, result: DiscoveryResult)] = [(scenario.phone, result)]
        for index in 1...count {
            let phone = try scenario.addPhone(seed: context.seed &+ UInt64(index), address: Self.storePhone(index))
            added.append(phone)
            paired.append((phone, try discover(context, scenario, phone: phone)))
            guard index < count else { break }
            let outcome = try pair(context, scenario, paired[index].result, phone: phone)
            try context.require(outcome.result == .paired, "phone \(index + 1) of \(count) paired: \(outcome)")
        }
        let (extra, found) = paired[count]
        // Counted before and after: a display that does not say whose PIN it shows names no phone.
        let before = scenario.pinsShown(for: extra.address).count
        let outcome = try pair(context, scenario, found, phone: extra)
        let shown = scenario.pinsShown(for: extra.address).count - before
        let what = "phone \(count + 1) pairing with maxPairedDevices \(count) (whenFull \(limit.whenFull.rawValue))"
        switch limit.whenFull {
        case .refuse:
            context.expectEqual(outcome.result, .failed, what)
            context.expectEqual(outcome.reason, "paired-device-limit", "why it was refused")
            context.expectEqual(shown, 0, "PINs shown for phone \(count + 1)")
        case .replaceOldest:
            context.expectEqual(outcome.result, .paired, "\(what) (\(outcome.reason ?? "-"): \(outcome.detail))")
            // The first phone's pairing is the oldest: its keys are gone. The next oldest (when
            // there is one) and the new phone's stay.
            let first = try reconnect(context, scenario, result)
            context.expectEqual(first.result, .failed, "the first (oldest) phone's reconnect (\(first.detail))")
            context.expectEqual(first.reason, "no-cached-keys", "why the first phone's reconnect failed")
            for (index, kept) in paired.enumerated().dropFirst() {
                let again = try reconnect(context, scenario, kept.result, phone: kept.phone)
                context.expectEqual(
                    again.result,
                    .reconnected,
                    "phone \(index + 1)'s reconnect with its cached keys (\(again.reason ?? "-"): \(again.detail))"
                )
            }
        }
    }

    /// Pairing verification from one of the test's other phones (``reconnect(_:_:_:dropsLink:timeout:)``
    /// runs the scenario's phone).
    private func reconnect(
        _ context: TestContext,
        _ scenario: Scenario,
        _ result: DiscoveryResult,
        phone: Phone
    ) throws -> PairingOutcome {
        scenario.session.perform {
            phone.pairing.dropLink(with: result.publisherAddress)
            phone.pairing.reconnect(with: result)
        }
        _ = scenario.wait(PairingSuite.pairingTimeout) { _ in phone.pairing.outcome != nil }
        let outcome = scenario.read { _ in phone.pairing.outcome }
        scenario.pass(PairingSuite.settleTime)
        return try context.require(outcome, "the reconnect of phone \(phone.address) ended")
    }

    /// The NMI of the test's phone `index` beyond the first, where every test meets a fresh
    /// accessory: the second is ``PairingSuite/secondPhoneAddress``.
    private static func storePhone(_ index: Int) -> MACAddress {
        MACAddress(0x02, 0xB1, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: 1 + index))
    }
}
