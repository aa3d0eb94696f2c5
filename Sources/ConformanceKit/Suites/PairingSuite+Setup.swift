import AwareProtocol
import AwareWire

extension PairingSuite.Builder {
    /// Pairing setup with the PIN the accessory displays (nan-wire-reference.md 3;
    /// apple-peer-model.md 3): the right PIN pairs, the PIN stays on the display, each attempt
    /// gets its own, a wrong one fails and counts, and too many lock pairing for a while.
    func setup() throws -> [ConformanceTest] {
        [
            try test(
                "WA/PAIR/BV-01",
                "The PIN shown on the accessory's display pairs the phone",
                tags: ["pin"],
                brokenBy: ["sae-wrong-pin"],
                steps: [.pairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .paired, "pairing with the displayed PIN (\(outcome.detail))")
                context.expectEqual(suite.pinCount(scenario), 1, "PINs the display showed for one pairing")
                if suite.hasEvents(scenario) {
                    context.expectEqual(suite.events(scenario, named: "paired").count, 1, "accessory events \"paired\"")
                }
            },
            try test(
                "WA/PAIR/BV-02",
                "The PIN never appears on the air, nor in any event the accessory reports",
                tags: ["pin"],
                brokenBy: ["log-pin"],
                steps: [.discovery]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                _ = try suite.pair(context, scenario, result)
                let pin = try context.require(
                    scenario.pinsShown(for: scenario.phone.address).last,
                    "the accessory showed a PIN"
                )
                // SAE proves the PIN without sending it (nan-wire-reference.md 3.4): its digits in
                // the clear in any frame, from either side, are a leak.
                let digits = Array(pin.utf8)
                let leaking = scenario.capturedFrames.filter { $0.firstRange(of: digits) != nil }
                context.expectEqual(leaking.count, 0, "frames on the air that carry the PIN's digits in the clear")
                if suite.hasEvents(scenario) {
                    let leaks = scenario.session.accessoryEvents.filter { $0.contains("\"\(pin)\"") }
                    context.expect(
                        leaks.isEmpty,
                        "no accessory event may carry the displayed PIN; \(leaks.count) do, e.g. \(leaks.first ?? "")"
                    )
                    context.expect(
                        !suite.events(scenario, named: "pin_shown").isEmpty,
                        "the accessory reports that it shows a PIN (event pin_shown, without the PIN)"
                    )
                }
            },
            try test(
                "WA/PAIR/BV-03",
                "Every pairing attempt shows a new PIN",
                tags: ["pin"],
                requires: [.freshPIN],
                brokenBy: ["reuse-pin"],
                steps: [.pairing, .retriedPairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                let first = try suite.pair(context, scenario, result, pin: PairingSuite.Builder.wrongPIN)
                context.expectEqual(first.result, .failed, "the first attempt, with a wrong PIN")
                let second = try suite.pair(context, scenario, result)
                let pins = scenario.pinsShown(for: scenario.phone.address)
                try context.require(pins.count == 2, "two attempts show two PINs: expected 2, got \(pins.count)")
                context.expect(pins[0] != pins[1], "the second attempt's PIN differs from the first's; both are shown")
                context.expectEqual(second.result, .paired, "the second attempt, with its own PIN (\(second.detail))")
            },
            try test(
                "WA/PAIR/BI-04",
                "A wrong PIN fails as an SAE confirm mismatch and counts against the limit",
                tags: ["pin", TestTag.leavesWrongPIN.name],
                brokenBy: ["no-lockout"],
                steps: [.retriedPairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                let outcome = try suite.pair(context, scenario, result, pin: PairingSuite.Builder.wrongPIN)
                context.expectEqual(outcome.result, .failed, "pairing with a wrong PIN")
                context.expectEqual(outcome.reason, "sae-confirm-mismatch", "why the pairing failed")
                if suite.hasEvents(scenario) {
                    let failed = suite.events(scenario, named: "pairing_failed")
                    let remaining = failed.last?["remainingAttempts"]?.integerValue
                    context.expect(
                        remaining != nil,
                        "the accessory's pairing_failed counts the wrong PIN (remainingAttempts); got "
                            + "\(failed.count) pairing_failed event(s), remainingAttempts \(remaining.map(String.init) ?? "absent")"
                    )
                }
            },
            try test(
                "WA/PAIR/BI-05",
                "After maxWrongAttempts wrong PINs pairing is locked: no PIN, refused as locked-out",
                tags: ["pin", "lockout", TestTag.leavesWrongPIN.name],
                needsReconfigure: true,
                brokenBy: ["no-lockout"],
                steps: [.retriedPairing]
            ) { context, suite in
                let scenario = try suite.openLockout(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                try suite.spendWrongPINs(context, scenario, result)
                let shown = suite.pinCount(scenario)
                let locked = try suite.pair(context, scenario, result)
                context.expectEqual(
                    locked.result,
                    .failed,
                    "a pairing right after \(PairingSuite.lockoutAttempts) wrong PINs"
                )
                context.expectEqual(locked.reason, "locked-out", "why it was refused")
                context.expectEqual(suite.pinCount(scenario), shown, "PINs shown while locked")
                if suite.hasEvents(scenario) {
                    context.expectEqual(
                        suite.events(scenario, named: "pairing_locked").count,
                        1,
                        "pairing_locked events"
                    )
                }
            },
            try test(
                "WA/PAIR/BV-06",
                "Once the lockout has run out, the displayed PIN pairs again",
                tags: ["pin", "lockout"],
                needsReconfigure: true,
                brokenBy: ["no-lockout"],
                steps: [.pairing, .retriedPairing]
            ) { context, suite in
                let scenario = try suite.openLockout(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                try suite.spendWrongPINs(context, scenario, result)
                let locked = try suite.pair(context, scenario, result)
                try context.require(
                    locked.reason == "locked-out",
                    "pairing is locked after \(PairingSuite.lockoutAttempts) wrong PINs: expected locked-out, got "
                        + "\(locked.result) (\(locked.reason ?? "-"))"
                )
                scenario.pass(.seconds(Int64(PairingSuite.lockoutSeconds + 1)))
                let recovered = try suite.pair(context, scenario, result)
                context.expectEqual(
                    recovered.result,
                    .paired,
                    "pairing \(PairingSuite.lockoutSeconds + 1) s after a \(PairingSuite.lockoutSeconds) s lockout "
                        + "(\(recovered.reason ?? "-"): \(recovered.detail))"
                )
                if suite.hasEvents(scenario) {
                    context.expect(
                        !suite.events(scenario, named: "pairing_unlocked").isEmpty,
                        "the accessory reports pairing_unlocked when the lockout ends"
                    )
                }
            },
            try test(
                "WA/PAIR/BV-18",
                "Pairing with NCS-PK-PASN-256 (SAE group 20, CSID 8)",
                tags: ["cipher-suite"],
                needsReconfigure: true,
                brokenBy: ["sae-wrong-pin"],
                steps: [.pairedExchange]
            ) { context, suite in
                let variant = PairingSuite.Builder.pairingVariant([("cipherSuites", "[\"NCS-PK-PASN-256\"]")])
                let scenario = try suite.open(context, variant: variant)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.suite = .ncsPKPASN256 }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .paired, "pairing with NCS-PK-PASN-256 (\(outcome.detail))")
                context.expectEqual(outcome.cipherSuite, 8, "the cipher suite the pairing used (CSID)")
                context.expect(outcome.keysCached, "NIKs exchanged under GCMP-256 protection: \(outcome.detail)")
            },
        ]
    }

    /// A session whose accessory locks after a few wrong PINs, for a few seconds.
    func openLockout(_ context: TestContext) throws -> Scenario {
        try open(
            context,
            variant: Self.pairingVariant([
                ("pin.maxWrongAttempts", "\(PairingSuite.lockoutAttempts)"),
                ("pin.lockoutSeconds", "\(PairingSuite.lockoutSeconds)"),
            ])
        )
    }

    /// Enters a wrong PIN `PairingSuite.lockoutAttempts` times; each must fail as a wrong PIN.
    func spendWrongPINs(_ context: TestContext, _ scenario: Scenario, _ result: DiscoveryResult) throws {
        for attempt in 1...PairingSuite.lockoutAttempts {
            let outcome = try pair(context, scenario, result, pin: Self.wrongPIN)
            try context.require(
                outcome.reason == "sae-confirm-mismatch",
                "wrong PIN \(attempt) of \(PairingSuite.lockoutAttempts): expected sae-confirm-mismatch, got "
                    + "\(outcome.result) (\(outcome.reason ?? "-"))"
            )
        }
    }
}
