import AwareCore
import AwareProtocol
import AwareWire

extension PairingSuite.Builder {
    /// After pairing, unicast SDFs and NAFs between the pair are protected with the PASN TK and
    /// an unprotected one from the paired phone is dropped (nan-wire-reference.md 3.8).
    func protection() throws -> [ConformanceTest] {
        [
            try test(
                "WA/PAIR/BV-11",
                "After pairing, the accessory's unicast frames to the phone are protected (category 9)",
                tags: ["protection"],
                needsProtectedFrames: true,
                brokenBy: ["no-frame-protection"],
                steps: [.pairedExchange]
            ) { context, suite in
                let (scenario, _) = try suite.openPaired(context, cached: false)
                defer { scenario.finish() }
                let counters = scenario.read { $0.device.protection.counters }
                context.expect(
                    counters.protectedReceived > 0,
                    "protected frames the phone received from the accessory after pairing: expected at least 1, got 0"
                )
                // Not judged: unprotected frames the phone dropped. Between the phone's frame 3 (it
                // installs the key) and the accessory's reception of it (it installs its own), a
                // frame already on its way goes in the clear; on a wall-clock air that race is real.
                // After it, every unicast frame is protected, which protectedReceived shows.
                context.expect(
                    counters.authenticationFailures == 0,
                    "protected frames from the accessory that did not verify with the pairing's TK: "
                        + "expected 0, got \(counters.authenticationFailures)"
                )
            },
            try test(
                "WA/PAIR/BI-12",
                "An unprotected unicast frame from the paired phone is ignored",
                tags: ["protection"],
                needsProtectedFrames: true,
                brokenBy: ["accept-unprotected"],
                steps: [.pairedExchange]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context, cached: false)
                defer { scenario.finish() }
                let shown = suite.pinCount(scenario)
                let phone = scenario.phone.address
                let sent = { suite.followUps(scenario, from: phone, to: result.publisherAddress) }
                let (sentBefore, rejectedBefore) = (sent(), scenario.read { $0.rejectedCommands.count })
                // The phone forgets its key, so its next follow-up goes out in the clear: a new
                // bootstrapping request, which an accessory acting on it would answer with a PIN.
                scenario.withPhone { phone in
                    phone.device.removePairwiseKey(peer: result.publisherAddress)
                    phone.device.perform(
                        .transmitFollowUp(
                            FollowUpRequest(
                                localInstanceID: result.subscribeInstanceID,
                                peerAddress: result.publisherAddress,
                                peerInstanceID: result.publishInstanceID,
                                attributes: [
                                    .pairingBootstrapping(
                                        PairingBootstrappingAttribute(
                                            dialogToken: 0x5A,
                                            type: .request,
                                            status: .accepted,
                                            methods: .pinCodeKeypad
                                        )
                                    )
                                ]
                            )
                        )
                    )
                }
                scenario.pass(.seconds(2))
                try context.require(
                    scenario.read { $0.rejectedCommands.count } == rejectedBefore && sent() > sentBefore,
                    "the phone sent an unprotected bootstrapping request to the accessory (the capture shows none)"
                )
                context.expectEqual(
                    suite.pinCount(scenario),
                    shown,
                    "PINs shown after the paired phone's unprotected bootstrapping request"
                )
                if suite.hasEvents(scenario) {
                    context.expectEqual(
                        suite.events(scenario, named: "bootstrap_requested").count,
                        1,
                        "bootstrap_requested events (the paired phone's unprotected request must not be one)"
                    )
                }
            },
        ]
    }

    /// Unprotected Follow-up SDFs (category 4) from `sender` to `receiver`, as captured.
    func followUps(_ scenario: Scenario, from sender: MACAddress, to receiver: MACAddress) -> Int {
        scenario.frames.count { entry in
            guard entry.frame.header.address2 == sender, entry.frame.header.address1 == receiver,
                case .serviceDiscovery = entry.frame.body
            else { return false }
            return true
        }
    }

    /// NIKs travel only when both sides cache keys (nan-wire-reference.md 3.6).
    func identityKeys() throws -> [ConformanceTest] {
        [
            try test(
                "WA/PAIR/BV-14",
                "When both sides cache keys, the accessory sends its NIK and the phone keeps the pairing",
                tags: ["nik"],
                needsProtectedFrames: true,
                brokenBy: ["no-frame-protection"],
                steps: [.pairedExchange]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                let outcome = try suite.pair(context, scenario, result)
                context.expect(outcome.keysCached, "NIKs exchanged after pairing: \(outcome.detail)")
                let (received, records) = scenario.read { ($0.pairing.nikMessagesReceived, $0.pairing.records) }
                context.expect(received > 0, "NIK messages the phone received: expected at least 1, got 0")
                context.expect(
                    records.contains { $0.peerNMI == result.publisherAddress && $0.peerNIK != nil },
                    "the phone keeps a pairing record with the accessory's NIK; it has \(records.count) record(s)"
                )
                if suite.hasEvents(scenario) {
                    context.expectEqual(
                        suite.events(scenario, named: "nik_exchanged").count,
                        1,
                        "accessory events nik_exchanged"
                    )
                }
            },
            try test(
                "WA/PAIR/BI-15",
                "When the phone does not cache keys, the accessory keeps its NIK to itself",
                tags: ["nik"],
                needsProtectedFrames: true,
                brokenBy: ["nik-without-caching"],
                steps: [.pairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { phone in
                    phone.pairing.options.cachesKeys = false
                    phone.pairing.options.sendsNIKRegardless = true
                }
                let outcome = try suite.pair(context, scenario, result)
                try suite.expectNoNIK(context, scenario, outcome, because: "the phone said it does not cache keys")
            },
            try test(
                "WA/PAIR/BI-16",
                "When the accessory's profile turns caching off, it sends no NIK",
                tags: ["nik"],
                needsReconfigure: true,
                needsProtectedFrames: true,
                brokenBy: ["nik-without-caching"],
                steps: [.pairing]
            ) { context, suite in
                let scenario = try suite.open(context, variant: PairingSuite.cachingOff)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.sendsNIKRegardless = true }
                let outcome = try suite.pair(context, scenario, result)
                try suite.expectNoNIK(context, scenario, outcome, because: "the profile turns key caching off")
            },
        ]
    }

    /// The pairing worked and no NIK came from the accessory.
    func expectNoNIK(_ context: TestContext, _ scenario: Scenario, _ outcome: PairingOutcome, because: String) throws {
        try context.require(
            outcome.result == .paired,
            "pairing with the displayed PIN: expected paired, got \(outcome.result) (\(outcome.reason ?? "-"))"
        )
        context.expect(!outcome.keysCached, "\(because): expected no NIK exchange, but the phone cached the pairing")
        context.expectEqual(
            scenario.read { $0.pairing.nikMessagesReceived },
            0,
            "NIK messages from the accessory when \(because)"
        )
        if hasEvents(scenario) {
            context.expectEqual(events(scenario, named: "nik_exchanged").count, 0, "accessory events nik_exchanged")
        }
    }
}
