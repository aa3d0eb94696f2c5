import AwareCore
import AwareProtocol
import AwareWire

extension PairingSuite.Builder {
    /// Reconnecting without a PIN (nan-wire-reference.md 2.17, 3.7; apple-peer-model.md 5): the
    /// accessory's NIRA resolves against the NIK the phone cached, across restarts and NMI
    /// changes, and PASN verification with the cached NPK needs no PIN. A factory reset, a wrong
    /// NPK or caching off in the profile make it impossible.
    func reconnect() throws -> [ConformanceTest] {
        [
            try test(
                "WA/RECON/BV-01",
                "A paired phone reconnects with its cached keys, without a PIN",
                tags: ["reconnect"],
                needsProtectedFrames: true,
                brokenBy: ["no-verification"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let outcome = try suite.reconnect(context, scenario, result)
                suite.expectReconnected(context, scenario, outcome, pinsShown: 1)
            },
            try test(
                "WA/RECON/BV-10",
                "A phone that comes back under a new NMI reconnects without a PIN: the accessory knows it by its NIK",
                tags: ["reconnect", "phone-nmi-change"],
                needsProtectedFrames: true,
                brokenBy: ["verify-by-nmi", "no-verification"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, _) = try suite.openPaired(context)
                defer { scenario.finish() }
                // Android draws a new NMI at least every 30 minutes and at every attach (the
                // CDD's Wi-Fi Aware C-1-4); the phone's NPKID in PASN frame 1 is made from its NIK and its
                // current NMI, so the accessory finds the pairing whatever the address
                // (nan-wire-reference.md 3.7).
                let before = scenario.phone.address
                guard try scenario.changePhoneAddress() else {
                    try context.skip(
                        "the phone's NMI is its radio's (\(before)) on this target: a new one needs another radio"
                    )
                }
                let found = try suite.discover(context, scenario)
                let outcome = try suite.reconnect(context, scenario, found, dropsLink: false)
                context.expect(scenario.phone.address != before, "the phone reconnected under a new NMI")
                suite.expectReconnected(context, scenario, outcome, pinsShown: 1)
            },
            try test(
                "WA/RECON/BV-11",
                "A phone that forgot the accessory pairs again with a PIN over the stale pairing, then reconnects",
                tags: ["reconnect", "phone-behaviour"],
                needsProtectedFrames: true,
                brokenBy: ["stale-pairing-kept", "no-verification"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                // The app was reinstalled or the pairing removed in Settings (apple-peer-model.md
                // 2.3): the phone keeps its NIK but no longer the accessory's keys, while the
                // accessory still holds the pairing. A new PIN pairing must replace that record
                // (it is the same NIK, nan-wire-reference.md 3.6), or the phone's new keys never
                // work and the old record takes a place in the store for good.
                let before = suite.events(scenario, named: "nik_exchanged").last?["pairedDevices"]?.integerValue
                // A phone that forgot comes back on a fresh attach, under a new NMI (Android draws
                // one at every attach, docs/phones.md): under the old one the accessory still holds
                // the link's NM-TK and rightly drops the phone's unprotected bootstrapping (3.8).
                scenario.withPhone { $0.pairing.forget(result.publisherAddress) }
                guard try scenario.changePhoneAddress() else {
                    try context.skip(
                        "the phone's NMI is its radio's on this target: a phone that forgot the accessory comes back "
                            + "under a new one, which needs another radio"
                    )
                }
                let found = try suite.discover(context, scenario)
                let again = try suite.pair(context, scenario, found)
                context.expectEqual(
                    again.result,
                    .paired,
                    "the second PIN pairing (\(again.reason ?? "-"): \(again.detail))"
                )
                context.expect(again.keysCached, "the NIKs were exchanged again (\(again.detail))")
                if let before, suite.hasEvents(scenario) {
                    let after = suite.events(scenario, named: "nik_exchanged").last?["pairedDevices"]?.integerValue
                    context.expectEqual(after, before, "pairings the accessory stores after the phone paired again")
                }
                let outcome = try suite.reconnect(context, scenario, found)
                suite.expectReconnected(context, scenario, outcome, pinsShown: 2)
            },
            try test(
                "WA/RECON/BV-09",
                "The NIK's lifetime on the air is the profile's (no expiry as the largest lifetime, never 12 hours)",
                tags: ["reconnect", "nik"],
                needsProtectedFrames: true,
                brokenBy: ["nik-lifetime-half-day"],
                steps: [.pairedExchange]
            ) { context, suite in
                let lifetime = try context.require(
                    context.capabilities.profile?.nikLifetimeSeconds,
                    "the profile caches NIKs (pairing.cache.nik)"
                )
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let record = try context.require(
                    scenario.read { $0.pairing.records.first { $0.peerNMI == result.publisherAddress } },
                    "the phone keeps the accessory's NIK"
                )
                // The phone keeps what the Key Lifetime KDE said, 0 for no expiry (NIKDelivery).
                context.expectEqual(
                    record.nikLifetimeSeconds,
                    lifetime,
                    "seconds the phone may keep the accessory's NIK (0 = no expiry, sent as 4,294,967,295 s)"
                )
            },
            try test(
                "WA/RECON/BV-02",
                "The accessory advertises a NIRA whose tag resolves with its NIK and NMI",
                tags: ["reconnect", "nira"],
                needsProtectedFrames: true,
                brokenBy: ["stale-nira-tag"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, _) = try suite.openPaired(context)
                defer { scenario.finish() }
                let found = try suite.discover(context, scenario)
                try context.require(found.identityResolution != nil, "the accessory's publish carries a NIRA")
                context.expect(
                    scenario.read { $0.pairing.resolve(found) } != nil,
                    "the NIRA tag resolves with the accessory's NIK and its NMI \(found.publisherAddress); it does not"
                )
            },
            try test(
                "WA/RECON/BV-03",
                "After the accessory restarts, the phone reconnects with the keys it kept on disk",
                tags: ["reconnect", "restart"],
                needsRestart: true,
                needsProtectedFrames: true,
                brokenBy: ["forget-keys-on-restart", "no-verification"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, _) = try suite.openPaired(context)
                defer { scenario.finish() }
                try suite.restart(context, scenario)
                let found = try suite.discover(context, scenario)
                let outcome = try suite.reconnect(context, scenario, found)
                suite.expectReconnected(context, scenario, outcome, pinsShown: 1)
            },
            try test(
                "WA/RECON/BV-04",
                "After a restart the accessory advertises a NIRA with a fresh nonce that still resolves",
                tags: ["reconnect", "nira", "restart"],
                needsRestart: true,
                needsProtectedFrames: true,
                brokenBy: ["fixed-nira-nonce"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let before = try context.require(result.identityResolution, "the accessory's publish carries a NIRA")
                try suite.restart(context, scenario)
                let found = try suite.discover(context, scenario)
                let after = try context.require(
                    found.identityResolution,
                    "after the restart, the publish carries a NIRA"
                )
                context.expect(
                    after.nonce != before.nonce,
                    "the NIRA nonce after a restart: expected a new one, got the same \(HexString.encode(after.nonce))"
                )
                context.expect(
                    scenario.read { $0.pairing.resolve(found) } != nil,
                    "the NIRA after the restart resolves with the cached NIK; it does not"
                )
            },
            try test(
                "WA/RECON/BV-05",
                "After the accessory changes its NMI, the phone finds it through its NIRA and reconnects",
                tags: ["reconnect", "nira", "restart"],
                needsRestart: true,
                needsProtectedFrames: true,
                brokenBy: ["forget-keys-on-restart", "no-verification"],
                steps: [.niraReconnect]
            ) { context, suite in
                let (scenario, _) = try suite.openPaired(context)
                defer { scenario.finish() }
                let old = try context.require(scenario.accessoryAddress, "the accessory's NMI before the restart")
                try suite.restart(context, scenario, newAddress: PairingSuite.rotatedNMI)
                let found = try suite.discover(context, scenario)
                if scenario.operatorAccess.reboot != nil || scenario.operatorAccess.prompts {
                    // A device the operator power-cycles picks its own NMI; AWARE_NEW_NMI only asks.
                    if found.publisherAddress == old {
                        try context.skip(
                            "the accessory kept its NMI \(old) across the reboot; this test needs one that takes a new "
                                + "NMI when it restarts (--reboot-command gets the one to use in AWARE_NEW_NMI)"
                        )
                    }
                } else {
                    context.expectEqual(
                        found.publisherAddress,
                        PairingSuite.rotatedNMI,
                        "the accessory's NMI after rotation"
                    )
                }
                context.expect(
                    scenario.read { $0.pairing.resolve(found) } != nil,
                    "the NIRA under the new NMI \(found.publisherAddress) resolves with the cached NIK; it does not"
                )
                let outcome = try suite.reconnect(context, scenario, found)
                suite.expectReconnected(context, scenario, outcome, pinsShown: 1)
            },
            try test(
                "WA/RECON/BI-06",
                "After a factory reset the cached keys no longer work and pairing needs a PIN again",
                tags: ["reconnect", "reset"],
                needsFactoryReset: true,
                needsProtectedFrames: true,
                brokenBy: ["keys-survive-reset"],
                steps: [.pairedExchange]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                try scenario.factoryResetAccessory()
                scenario.withPhone { $0.pairing.dropLink(with: result.publisherAddress) }
                let found = try suite.discover(context, scenario)
                let outcome = try suite.reconnect(context, scenario, found)
                context.expectEqual(outcome.result, .failed, "a reconnect after a factory reset (\(outcome.detail))")
                if suite.hasEvents(scenario) {
                    context.expectEqual(
                        suite.events(scenario, named: "reconnected").count,
                        0,
                        "accessory events reconnected"
                    )
                }
                let paired = try suite.pair(context, scenario, found)
                context.expectEqual(paired.result, .paired, "a PIN pairing after the factory reset (\(paired.detail))")
            },
            try test(
                "WA/RECON/BI-07",
                "Verification with a wrong NPK fails: frame 3's MIC is checked",
                tags: ["reconnect", "pasn"],
                // Frame 3 ends the exchange: an accessory that skips its MIC and one that checks it
                // send the same nothing, and with a wrong NPK both derive keys the phone does not
                // hold, so no later frame tells them apart. Only accessory-emu's event log can.
                needsEventLog: true,
                needsProtectedFrames: true,
                brokenBy: ["skip-frame3-mic"],
                steps: [.niraReconnect]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                try suite.requirePairing(context, scenario, result)
                scenario.withPhone { phone in
                    phone.pairing.options.corruptsCachedNPK = true
                    phone.pairing.options.ignoresFrame2MIC = true
                }
                _ = try suite.reconnect(context, scenario, result)
                context.expectEqual(
                    suite.events(scenario, named: "reconnected").count,
                    0,
                    "accessory events reconnected after a verification with a wrong NPK"
                )
                context.expect(
                    !suite.events(scenario, named: "verification_failed").isEmpty,
                    "the accessory reports verification_failed for a frame 3 made with a wrong NPK"
                )
            },
            try test(
                "WA/RECON/BI-08",
                "With key caching off in the profile, there is no NIRA and no reconnect: a PIN pairing is needed",
                tags: ["reconnect", "nik"],
                needsReconfigure: true,
                needsProtectedFrames: true,
                brokenBy: ["nik-without-caching"],
                steps: [.pairedExchange]
            ) { context, suite in
                let scenario = try suite.open(context, variant: PairingSuite.cachingOff)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.sendsNIKRegardless = true }
                let paired = try suite.pair(context, scenario, result)
                try suite.expectNoNIK(context, scenario, paired, because: "the profile turns key caching off")
                context.expect(result.identityResolution == nil, "a publish with caching off carries no NIRA")
                // The link stays up: the new pairing's bootstrapping goes out protected.
                let outcome = try suite.reconnect(context, scenario, result, dropsLink: false)
                context.expectEqual(outcome.result, .failed, "a reconnect with caching off")
                context.expectEqual(outcome.reason, "no-cached-keys", "why the reconnect failed")
                scenario.withPhone { $0.pairing.options.sendsNIKRegardless = false }
                let again = try suite.pair(context, scenario, result)
                context.expectEqual(again.result, .paired, "a new PIN pairing (\(again.detail))")
                context.expectEqual(suite.pinCount(scenario), 2, "PINs shown for two pairings")
            },
        ]
    }

    /// Restarts the accessory (a reboot that keeps its store), under `newAddress` if given.
    /// The phone notices the link went down and forgets its NM-TK, as it does when the
    /// accessory goes away: otherwise it would drop the new boot's unprotected replies.
    func restart(_ context: TestContext, _ scenario: Scenario, newAddress: MACAddress? = nil) throws {
        let old = scenario.accessoryAddress
        try scenario.restartAccessory(newAddress: newAddress)
        if let old { scenario.withPhone { $0.pairing.dropLink(with: old) } }
    }

    func expectReconnected(_ context: TestContext, _ scenario: Scenario, _ outcome: PairingOutcome, pinsShown: Int) {
        context.expectEqual(
            outcome.result,
            .reconnected,
            "a reconnect with cached keys (\(outcome.reason ?? "-"): \(outcome.detail))"
        )
        context.expectEqual(pinCount(scenario), pinsShown, "PINs shown (a reconnect needs none)")
        if hasEvents(scenario) {
            context.expectEqual(events(scenario, named: "reconnected").count, 1, "accessory events reconnected")
        }
    }
}
