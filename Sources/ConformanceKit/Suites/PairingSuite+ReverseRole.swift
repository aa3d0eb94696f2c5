import AwareCore
import AwareProtocol
import AwareWire
import Foundation

extension SharedStep {
    /// Every test in which the accessory, subscribing, pairs with the publishing phone.
    static let reversePairing = SharedStep(
        "reverse pairing",
        brokenBy: ["reverse-requests-display"],
        because: "a subscriber that asks the publishing phone for PIN display names a method whose complement the "
            + "phone does not offer: it is refused (status 1, reason 13) and never pairs"
    )
    /// Every reverse-role test that goes on after the pairing: the NIK exchange, the data path.
    static let reversePairedExchange = SharedStep(
        "reverse paired exchange",
        after: [.reversePairing],
        brokenBy: ["no-frame-protection"],
        because: "the phone drops the accessory's unprotected NIK follow-up once they share an NM-TK "
            + "(nan-wire-reference.md 3.8): the NIK exchange never completes"
    )
    /// Every reverse-role test that exchanges standard traffic on the data path the accessory opened.
    static let reverseDataTraffic = SharedStep(
        "reverse data traffic",
        after: [.reversePairedExchange],
        brokenBy: ["ndp-plaintext-data", "ipv6-no-neighbor-advertisement", "ipv6-no-echo-reply"],
        because: "the phone drops unprotected data frames, finds no neighbour to send to without an advertisement "
            + "(RFC 4861 7.2), and gets no answer from a stack that does not echo"
    )
}

extension PairingSuite.Builder {
    /// The reverse role (issue 22; apple-peer-model.md 3): an app that pairs through
    /// DevicePairingView publishes and the accessory subscribes. "The incoming request and a PIN
    /// code is displayed on the publisher side and entered on the subscriber side" (WWDC25
    /// session 228), so the accessory asks for PIN keypad (the complement of the phone's PIN
    /// display, nan-wire-reference.md 3.2), runs PASN as the initiator, sends its NIK first
    /// (3.6), and opens the data path, naming the phone's publish (4.1). The phone here is the
    /// responder in every exchange, as hostap's and ESP-IDF's publishers are.
    func reverseRole() throws -> [ConformanceTest] {
        [
            try test(
                "WA/PAIR/BV-27",
                "As a subscriber, the accessory pairs with a publishing phone: PIN keypad, the phone's PIN, its NIK",
                tags: ["reverse-role", "phone-behaviour"],
                requires: [.subscription(dataPath: false)],
                budget: .seconds(120),
                brokenBy: ["reverse-no-nik"],
                steps: [.reversePairedExchange]
            ) { context, suite in
                let (run, answers) = try suite.reversePairing(context, checkingRequest: true)
                defer { run.scenario.finish() }
                context.expect(
                    answers.contains(where: \.isPaired),
                    "PASN pairing setup completed with the accessory as the initiator"
                )
                if case .failed(_, let reason) = answers.last {
                    context.log("phone_pairing_failed", ["reason": .string(reason)])
                }
                context.expect(
                    answers.contains(.nikExchanged(peer: run.accessory)),
                    "the accessory sent its NIK after pairing and the phone answered with its own (3.6)"
                )
                let kept = run.scenario.read { $0.pairing.records.contains { $0.peerNMI == run.accessory } }
                context.expect(kept, "the phone keeps a pairing record for the accessory (its NIK, NPK)")
            },
            try test(
                "WA/PAIR/BI-18",
                "As a subscriber given a wrong PIN, the accessory pairs with nothing and opens no data path",
                tags: ["reverse-role", "pin"],
                requires: [.subscription(dataPath: true)],
                budget: .seconds(120),
                brokenBy: ["reverse-datapath-unpaired"],
                steps: [.reversePairing]
            ) { context, suite in
                let (run, answers) = try suite.reversePairing(context, transform: AccessoryPINs.otherPIN)
                defer { run.scenario.finish() }
                context.expect(!answers.contains(where: \.isPaired), "a wrong PIN completes no pairing")
                // Time for a data path the accessory should not ask for: well past a pairing's end.
                run.scenario.pass(.seconds(5))
                let requests = run.scenario.read { phone in
                    phone.dataPaths.receivedFrames.filter { $0.key.peerNMI == run.accessory }.count
                }
                context.expectEqual(requests, 0, "Data Path Requests from the accessory after the failed pairing")
                let kept = run.scenario.read { $0.pairing.records.contains { $0.peerNMI == run.accessory } }
                context.expect(!kept, "the phone keeps no pairing with the accessory")
            },
            try test(
                "WA/RECON/BV-12",
                "As a subscriber, the accessory verifies with a publishing phone it paired with, after a restart and "
                    + "under the phone's new NMI, with no PIN",
                tags: ["reverse-role", "reconnect", "phone-nmi-change"],
                requires: [.subscription(dataPath: false)],
                needsRestart: true,
                budget: .seconds(150),
                brokenBy: ["forget-keys-on-restart", "reverse-no-nik"],
                steps: [.reversePairedExchange]
            ) { context, suite in
                let (run, answers) = try suite.reversePairing(context)
                defer { run.scenario.finish() }
                try context.require(
                    answers.contains(.nikExchanged(peer: run.accessory)) ? true : nil,
                    "the accessory paired with the phone (WA/PAIR/BV-27)"
                )
                // The accessory keeps the pairing once the phone's NIK, the answer to its own, is in.
                run.scenario.pass(.seconds(2))
                let before = run.scenario.read { $0.pairing.answers.count }
                try run.scenario.restartAccessory(newAddress: nil)
                // The phone comes back as a phone that randomizes its NMI does (docs/phones.md): the
                // accessory can find the pairing only through the NIRA in the phone's publish (3.7).
                let renamed = try run.scenario.changePhoneAddress()
                if renamed { run.scenario.withPhone { $0.publishForPairing(service: run.service) } }
                // What the phone sees from here on (a renamed phone is a new device, its log empty).
                let since = renamed ? 0 : before
                let verified = run.scenario.wait(context.phone.discoveryWindow + .seconds(10)) { phone in
                    phone.pairing.answers.dropFirst(since).contains {
                        switch $0 {
                        case .reconnected(let peer), .bootstrapRequested(let peer, _): peer == run.accessory
                        default: false
                        }
                    }
                }
                let now = run.scenario.read { phone in
                    phone.pairing.answers.dropFirst(since).filter { $0.peer == run.accessory }
                }
                context.expect(
                    verified && now.contains(.reconnected(peer: run.accessory)),
                    "after its restart the accessory resolved the phone's NIRA"
                        + (renamed ? " under the phone's new NMI" : "")
                        + " and verified the pairing with its cached keys (PASN verification, 3.7)"
                )
                context.expect(
                    !now.contains { if case .bootstrapRequested = $0 { true } else { false } },
                    "it did not ask to bootstrap again: no PIN the second time"
                )
            },
        ]
    }

    /// The data path the accessory opens to the publishing phone (the reverse role): in the
    /// data path group, `WA/NDP`.
    func reverseDataPath() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-15",
                "As a subscriber, the accessory opens a paired data path to the publishing phone, and it carries traffic",
                tags: ["reverse-role", "datapath"],
                requires: [.subscription(dataPath: true)],
                budget: .seconds(120),
                brokenBy: ["reverse-ndp-own-instance"],
                steps: [.reverseDataTraffic]
            ) { context, suite in
                let (run, answers) = try suite.reversePairing(context)
                defer { run.scenario.finish() }
                try context.require(
                    answers.contains(where: \.isPaired) ? true : nil,
                    "the accessory paired with the phone (WA/PAIR/BV-27)"
                )
                // The accessory asks once it has paired (and had the phone's NIK, or waited 5 s for it);
                // the phone answers as the NDP responder.
                let up = run.scenario.wait(.seconds(10)) { phone in
                    phone.dataPaths.outcomes.contains { $0.key.peerNMI == run.accessory && $0.value.link != nil }
                }
                let frames = run.scenario.read { phone in
                    phone.dataPaths.receivedFrames.filter { $0.key.peerNMI == run.accessory }.values.flatMap { $0 }
                }
                let request = frames.lazy.compactMap { frame -> NANActionFrame? in
                    guard case .nanAction(let naf) = frame.frame.body, naf.subtype == .dataPathRequest else {
                        return nil
                    }
                    return naf
                }.first
                let naf = try context.require(request, "the accessory sent a Data Path Request to the phone")
                let publishID = naf.attributes.lazy.compactMap { attribute -> UInt8? in
                    switch attribute {
                    case .ndp(let ndp): ndp.common.publishID
                    case .ndpExtension(let ndpe): ndpe.common.publishID
                    default: nil
                    }
                }.first
                context.expectEqual(
                    publishID,
                    run.publishID,
                    "the request's Publish ID is the phone's publish instance, the service it subscribed to (4.1)"
                )
                context.expect(up, "the phone accepted the data path and it finished setup")
                guard up else { return }
                let link = try context.require(
                    run.scenario.read { phone in
                        phone.dataPaths.outcomes.first { $0.key.peerNMI == run.accessory }?.value.link
                    },
                    "the data path"
                )
                let csid = link.security.map { Int($0.rawValue) }
                context.expect(
                    csid == 7 || csid == 8,
                    "the data path is secured with the pairing (NCS-PK-PASN, CSID 7 or 8; it is \(csid.map(String.init) ?? "open"))"
                )
                var echo: PhoneEchoRun?
                run.scenario.session.perform {
                    echo = run.scenario.phone.dataPaths.startEcho(
                        on: link.id,
                        pattern: .steady(rateHz: 10, count: 10),
                        size: 64,
                        category: .bestEffort
                    )
                }
                let started = try context.require(echo, "the data path is up for echo requests")
                _ = run.scenario.wait(.seconds(3)) { _ in
                    started.finishedSending && started.exchanges.allSatisfy { $0.repliedAt != nil }
                }
                let answered = run.scenario.read { _ in started.exchanges.filter { $0.repliedAt != nil }.count }
                context.expect(
                    answered >= 8,
                    "the accessory answers the phone's echo requests over the data path it opened (\(answered) of 10)"
                )
            }
        ]
    }

    /// One reverse-role test's stage: the phone publishing, the accessory that asked to pair.
    struct ReverseRun {
        let scenario: Scenario
        let accessory: MACAddress
        let service: String
        /// The phone's publish instance.
        let publishID: UInt8
        /// The accessory's bootstrapping request, as the phone saw it.
        let firstAnswer: PairingAnswer
    }

    /// Opens a scenario in which the phone publishes the profile's first subscription for
    /// pairing, and waits for the accessory to ask to bootstrap. Skips where nobody can enter
    /// the phone's PIN on the accessory.
    func reverseRun(_ context: TestContext) throws -> ReverseRun {
        let facts = try context.require(context.capabilities.profile, "a profile")
        let service = try context.require(facts.subscriptions.first?.name, "the profile subscribes to a service")
        let scenario = try open(context)
        guard scenario.canEnterPINOnAccessory else {
            scenario.finish()
            try context.skip(
                "the PIN the phone shows must be entered on the accessory: the runner does that for accessory-emu "
                    + "(in process or through --control); for another device give --enter-pin-command CMD, or run "
                    + "at a terminal"
            )
        }
        do {
            scenario.withPhone { $0.publishForPairing(service: service) }
            // The accessory listens for the phone's announcements, then asks at once.
            let asked = scenario.wait(context.phone.discoveryWindow + .seconds(3)) { phone in
                phone.pairing.answers.contains {
                    switch $0 {
                    case .bootstrapRequested, .methodRefused: true
                    default: false
                    }
                }
            }
            let publishID = try context.require(
                scenario.read { $0.publishInstances[service] },
                "the phone publishes \(service)"
            )
            try context.require(asked ? true : nil, "the accessory found the phone's publish and asked to pair")
            // An accessory that outlives the test may hold a pairing with this phone identity and try
            // it first; the phone holds none and refuses, and the accessory asks to pair afresh.
            let first = try context.require(
                scenario.read { phone in
                    phone.pairing.answers.first {
                        switch $0 {
                        case .bootstrapRequested, .methodRefused: true
                        default: false
                        }
                    }
                },
                "the accessory's request"
            )
            return ReverseRun(
                scenario: scenario,
                accessory: first.peer,
                service: service,
                publishID: publishID,
                firstAnswer: first
            )
        } catch {
            scenario.finish()
            throw error
        }
    }

    /// The reverse role's pairing, up to its end on the phone's side: the phone publishes, the
    /// accessory asks (its request checked first when `checkingRequest`), the person types the
    /// phone's PIN on the accessory through `transform`. Returns the stage, which the caller
    /// finishes, and what the phone saw of the attempt.
    func reversePairing(
        _ context: TestContext,
        checkingRequest: Bool = false,
        transform: (String) -> String = { $0 }
    ) throws -> (run: ReverseRun, answers: [PairingAnswer]) {
        let run = try reverseRun(context)
        do {
            if checkingRequest { try checkBootstrapRequest(context, run) }
            try typePhonePIN(context, run, transform: transform)
            return (run, reverseOutcome(context, run))
        } catch {
            run.scenario.finish()
            throw error
        }
    }

    /// The accessory's bootstrapping request: to the phone's publish, for PIN keypad.
    func checkBootstrapRequest(_ context: TestContext, _ run: ReverseRun) throws {
        let request = run.scenario.read { phone in
            phone.followUpsReceived.first { message in
                message.peerAddress == run.accessory
                    && message.attributes.contains {
                        if case .pairingBootstrapping(let npba) = $0 { npba.type == .request } else { false }
                    }
            }
        }
        let message = try context.require(request, "the accessory's bootstrapping request reached the phone")
        context.expectEqual(
            message.localInstanceID,
            run.publishID,
            "the request's Requestor Instance ID names the phone's publish (nan-wire-reference.md 3.1)"
        )
        let method: BootstrappingMethods? =
            switch run.firstAnswer {
            case .bootstrapRequested(_, let method), .methodRefused(_, let method): method
            default: nil
            }
        context.expectEqual(
            method?.rawValue,
            BootstrappingMethods.pinCodeKeypad.rawValue,
            "the accessory asks for PIN keypad, the complement of the PIN display the phone offers (3.2)"
        )
    }

    /// The person reads the PIN off the phone and types it on the accessory (through
    /// `transform`, a test's wrong PIN), at the phone profile's human speed.
    func typePhonePIN(
        _ context: TestContext,
        _ run: ReverseRun,
        transform: (String) -> String = { $0 }
    ) throws {
        let scenario = run.scenario
        let accepted = scenario.wait(.seconds(5)) { phone in
            phone.pairing.answers.contains(.bootstrapAccepted(peer: run.accessory))
        }
        try context.require(accepted ? true : nil, "the phone accepted the accessory's bootstrapping and shows a PIN")
        let pin = try context.require(
            scenario.read { $0.pairing.shownPINs.last { $0.peer == run.accessory }?.pin },
            "the PIN the phone shows"
        )
        let taken = try scenario.enterPINOnAccessory(transform(pin))
        try context.require(taken ? true : nil, "the accessory took the PIN it asked for (event pin_requested)")
    }

    /// Waits for the pairing to end on the phone's side, and returns what the phone saw of it:
    /// the answers from the accessory's bootstrapping request on.
    func reverseOutcome(_ context: TestContext, _ run: ReverseRun) -> [PairingAnswer] {
        func attempt(_ phone: Phone) -> ArraySlice<PairingAnswer> {
            let answers = phone.pairing.answers
            let start = answers.firstIndex(of: run.firstAnswer) ?? answers.startIndex
            return answers[start...].filter { $0.peer == run.accessory }[...]
        }
        _ = run.scenario.wait(PairingSuite.pairingTimeout) { phone in
            attempt(phone).contains {
                switch $0 {
                case .nikExchanged, .failed: true
                default: false
                }
            }
        }
        return run.scenario.read { phone in Array(attempt(phone)) }
    }
}

/// Wrong PINs for tests: the same length, every digit moved on by one.
enum AccessoryPINs {
    static func otherPIN(_ pin: String) -> String {
        String(pin.map { $0.wholeNumberValue.map { Character(String(($0 + 1) % 10)) } ?? $0 })
    }
}
