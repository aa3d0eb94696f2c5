import AwareCore
import AwareProtocol
import AwareWire

extension PairingSuite.Builder {
    /// Where phones pair differently (docs/phones.md): the layouts their NIK follow-up comes in,
    /// what they need in the accessory's, and the person between the PIN and frame 1, who takes
    /// their time or cancels. Each test runs under every phone profile: the behaviour it forces
    /// is one some phone in the field has, whichever phone the run plays otherwise.
    func phones() throws -> [ConformanceTest] {
        try nikLayouts() + [
            try test(
                "WA/PAIR/BV-24",
                "The accessory's NIK follow-up carries its NIRA and the service's port and instance name",
                tags: ["nik", "phone-behaviour"],
                needsProtectedFrames: true,
                brokenBy: ["bare-nik-follow-up"],
                steps: [.pairedExchange]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let message = try context.require(
                    scenario.read { $0.pairing.lastNIKFollowUp },
                    "the accessory sent its NIK"
                )
                // ESP-IDF, written for the iPhone, sends these beside the NIK because "iPhone ...
                // won't commit the pairing record without it" (nan-wire-reference.md 3.9).
                let nira = message.attributes.lazy.compactMap { attribute -> IdentityResolutionAttribute? in
                    if case .identityResolution(let nira) = attribute { nira } else { nil }
                }.first
                context.expect(nira != nil, "the NIK follow-up carries a NAN Identity Resolution attribute")
                // Compared where the publish carries one (WA/RECON/BV-02 judges a publish without).
                if let nira, let published = result.identityResolution {
                    context.expectEqual(nira, published, "the NIRA beside the NIK is the one the accessory publishes")
                }
                let gsp = message.serviceSpecificInfo.flatMap { info in
                    try? GenericServiceProtocol(
                        oui: info.oui,
                        serviceProtocolType: info.protocolType.rawValue,
                        data: info.info
                    )
                }
                let facts = try context.require(context.capabilities.profile, "a profile")
                let port = facts.dataPath.flatMap { $0.service == result.serviceName ? $0.port : nil }
                context.expect(
                    gsp?.transportPort != nil,
                    "the NIK follow-up's service info is a Generic Service Protocol naming the transport port"
                )
                if let port, let sent = gsp?.transportPort {
                    context.expectEqual(Int(sent), port, "the port beside the NIK (the profile's datapath.port)")
                }
                context.expect(
                    !(gsp?.serviceInstanceName ?? "").isEmpty,
                    "the NIK follow-up names the service instance (Generic Service Protocol sub-attribute 0x03)"
                )
            },
            try test(
                "WA/PAIR/BV-25",
                "A person who takes a minute to type the PIN still pairs",
                tags: ["pin", "phone-behaviour"],
                budget: .seconds(150),
                brokenBy: ["short-pin-window"],
                steps: [.pairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                let outcome = try suite.pairSlowly(context, scenario, result, seconds: 60)
                context.expectEqual(
                    outcome.result,
                    .paired,
                    "a pairing whose PIN was typed 60 s after it appeared (\(outcome.reason ?? "-"): \(outcome.detail))"
                )
            },
            try test(
                "WA/PAIR/BV-26",
                "A person who cancels the PIN entry, as many times as the wrong-PIN limit, then tries again pairs",
                tags: ["pin", "phone-behaviour"],
                budget: .seconds(240),
                brokenBy: ["count-cancelled-pin"],
                steps: [.pairing]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                // A cancel sends nothing (iOS reports DAError 350017 to the app, apple-peer-model.md
                // 2.1): no PIN was tried, so none may count against the limit.
                let cancels = context.capabilities.profile?.pin?.maxWrongAttempts ?? 3
                for attempt in 1...cancels {
                    let cancelled = try suite.pairAndCancel(context, scenario, result)
                    try context.require(
                        cancelled.reason == "cancelled",
                        "cancel \(attempt) of \(cancels): the accessory showed a PIN and the person cancelled "
                            + "(got \(cancelled.result): \(cancelled.reason ?? "-"): \(cancelled.detail))"
                    )
                }
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(
                    outcome.result,
                    .paired,
                    "pairing after \(cancels) cancelled PIN entries (\(outcome.reason ?? "-"): \(outcome.detail))"
                )
            },
        ]
    }

    /// One test per NIK follow-up layout seen in the field other than the reference phone's
    /// own (hostap's current one, which every other pairing test sends): the accessory must
    /// take the phone's NIK in each, and answer with its own (nan-wire-reference.md 3.6, 3.9).
    private func nikLayouts() throws -> [ConformanceTest] {
        let layouts: [(id: String, layout: PhoneProfile.NIKFollowUp, who: String, brokenBy: [FaultName])] = [
            (
                "WA/PAIR/BV-19", .init(form: .noMIC, lifetimeSeconds: 86_400),
                "hostap as recorded in session A", ["nik-mic-field-required"]
            ),
            (
                "WA/PAIR/BV-20", .init(form: .noMIC, lifetimeSeconds: nil),
                "no MIC field and no lifetime", ["nik-mic-field-required", "nik-lifetime-required"]
            ),
            (
                "WA/PAIR/BV-21", .init(form: .zeroMICUnflagged, lifetimeSeconds: 86_400), "ESP-IDF",
                ["nik-mic-by-flag"]
            ),
            (
                "WA/PAIR/BV-22", .init(form: .zeroMICUnflagged, lifetimeSeconds: nil),
                "the iPhone as ESP-IDF reports it", ["nik-mic-by-flag", "nik-lifetime-required"]
            ),
            (
                "WA/PAIR/BV-23", .init(form: .zeroMIC, lifetimeSeconds: nil),
                "hostap's current form without the lifetime", ["nik-lifetime-required"]
            ),
        ]
        return try layouts.map { entry in
            try test(
                entry.id,
                "The accessory takes the phone's NIK sent as \(entry.who) (\(entry.layout))",
                tags: ["nik", "phone-behaviour"],
                needsProtectedFrames: true,
                brokenBy: entry.brokenBy,
                steps: [.pairedExchange]
            ) { context, suite in
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario)
                scenario.withPhone { $0.pairing.options.nikFollowUp = entry.layout }
                context.log("nik_layout", ["layout": .string(entry.layout.description)])
                let outcome = try suite.pair(context, scenario, result)
                context.expectEqual(outcome.result, .paired, "a PIN pairing (\(outcome.detail))")
                // The accessory answers the phone's NIK with its own only once it has kept the
                // phone's (3.6): no answer means it refused this layout.
                context.expect(
                    outcome.keysCached,
                    "the accessory answered the phone's NIK (\(entry.layout)) with its own; it sent none "
                        + "(\(outcome.reason ?? "-"): \(outcome.detail))"
                )
                if suite.hasEvents(scenario) {
                    context.expectEqual(
                        suite.events(scenario, named: "nik_refused").count,
                        0,
                        "accessory events nik_refused"
                    )
                }
            }
        }
    }

    /// Pairs with `result` with the person taking exactly `seconds` over the PIN, whatever the
    /// run's phone profile says.
    func pairSlowly(
        _ context: TestContext,
        _ scenario: Scenario,
        _ result: DiscoveryResult,
        seconds: Int64
    ) throws -> PairingOutcome {
        let phone = scenario.phone
        if startAwaitingPIN(scenario, phone, result) {
            scenario.personTakes(seconds: seconds)
            try scenario.enterPIN(phone: phone, result: result, transform: { $0 }, atOnce: true)
        }
        return try settle(context, scenario, phone: phone, what: "pairing", timeout: PairingSuite.pairingTimeout)
    }

    /// Starts a pairing with `result` and has the person cancel the PIN entry once the accessory
    /// shows the PIN (after the time they take to read it, under the phone's profile).
    func pairAndCancel(
        _ context: TestContext,
        _ scenario: Scenario,
        _ result: DiscoveryResult
    ) throws
        -> PairingOutcome
    {
        let phone = scenario.phone
        if startAwaitingPIN(scenario, phone, result) {
            scenario.typePINAtHumanSpeed()
            scenario.withPhone { _ in phone.pairing.cancelPINEntry() }
            context.log("pin_entry_cancelled", [:])
        }
        return try settle(context, scenario, phone: phone, what: "pairing", timeout: PairingSuite.pairingTimeout)
    }

    /// Starts a pairing with `result` whose PIN the test enters itself; true once the accessory
    /// accepted PIN bootstrapping and shows it (false: the attempt ended before that).
    private func startAwaitingPIN(_ scenario: Scenario, _ phone: Phone, _ result: DiscoveryResult) -> Bool {
        scenario.session.perform { phone.pairing.pair(with: result, pin: .later) }
        _ = scenario.wait(PairingSuite.pairingTimeout) { _ in
            phone.pairing.outcome != nil || phone.pairing.awaitingPIN
        }
        return scenario.read { _ in phone.pairing.awaitingPIN }
    }
}
