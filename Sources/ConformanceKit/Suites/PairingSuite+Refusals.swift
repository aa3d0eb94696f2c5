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
                let offered = context.capabilities.profile?.bootstrappingMethods ?? []
                guard !offered.contains("qrDisplay") else { try context.skip("the profile offers qrDisplay") }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.method = .qrCodeScan }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .failed, "bootstrapping with QR code scan (complement not offered)")
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
            try test(
                "WA/PAIR/BI-17",
                "With maxPairedDevices paired, another phone is refused as paired-device-limit",
                tags: ["store"],
                needsReconfigure: true,
                brokenBy: ["no-pairing-limit"],
                steps: [.pairedExchange]
            ) { context, suite in
                let scenario = try suite.open(context, variant: Self.pairingVariant([("maxPairedDevices", "1")]))
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                try suite.requirePairing(context, scenario, result)
                let second = try scenario.addPhone(seed: context.seed &+ 1, address: PairingSuite.secondPhoneAddress)
                defer { scenario.session.perform { second.stop() } }
                let found = try suite.discover(context, scenario, phone: second)
                let shown = suite.pinCount(scenario)
                let outcome = try suite.pair(context, scenario, found, phone: second)
                context.expectEqual(outcome.result, .failed, "a second phone pairing with maxPairedDevices 1")
                context.expectEqual(outcome.reason, "paired-device-limit", "why it was refused")
                context.expectEqual(suite.pinCount(scenario), shown, "PINs shown for the second phone")
            },
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
