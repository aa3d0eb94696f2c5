import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The phone's side of NAN pairing, as an iPhone does it (apple-peer-model.md 3-5;
/// nan-wire-reference.md 3): the device's ``PairingManager`` runs the initiator (bootstrapping
/// with PIN keypad, PASN with the PIN the person reads off the accessory, the NIK exchange,
/// verification with cached keys once the accessory's NIRA resolves); this is the phone's policy
/// and the runner's view of it: the PIN typed, the misbehaviour a test asks for, and how each
/// attempt ended (``outcome``). One attempt at a time.
public final class PhonePairing: PairingDelegate {
    let manager: PairingManager
    public var options = PhonePairingOptions()
    /// The outcome of the last attempt, once it ended.
    public private(set) var outcome: PairingOutcome?
    /// Tells the test log what happens.
    var log: ((String, [String: JSONValue]) -> Void)?
    private var pinSupply: PINSupply?
    /// Why the PIN could not be read, when the one reading it gave up (``enterPIN(_:unavailable:)``).
    private var pinFailure: String?
    /// The person cancelled the current attempt's PIN prompt (``cancelPINEntry()``).
    private var cancelled = false
    /// The accessory of the current attempt.
    private var accessory: MACAddress?
    /// The reverse role (``answerPairing()``): the PINs this phone showed as a publisher, oldest
    /// first, each for the accessory that asked.
    public private(set) var shownPINs: [DisplayedPIN] = []
    /// What accessories asked of the publishing phone and what became of it, in order.
    public private(set) var answers: [PairingAnswer] = []
    /// The PIN shown for each accessory's current bootstrapping.
    private var pinsShown: [MACAddress: String] = [:]
    private var pinDraws: SeededGenerator
    /// How many digits the PIN a publishing phone shows has (``PhoneProfile/PublisherPairing``).
    private var pinDigits = 6

    /// `nik`, when given, is the phone's NIK (one of the runner's identities); otherwise the
    /// store's, or one drawn from `seed`.
    init(device: NANDevice, store: PairingStore?, seed: UInt64, nik given: [UInt8]? = nil) {
        manager = PairingManager(
            device: device,
            configuration: PairingManager.Configuration(responds: false),
            store: store,
            random: DeviceRandom(seed: seed ^ 0x5048_4F4E_4550_4149),
            nik: given
        )
        pinDraws = SeededGenerator(seed: seed ^ 0x5049_4E53_484F_5753)
        manager.delegate = self
    }

    /// The phone answers pairing from now on, as a publisher does: it offers PIN display, shows a
    /// PIN of `pinDigits` digits to each accessory that asks with PIN keypad, and runs PASN as the responder
    /// (apple-peer-model.md 3: "the incoming request and a PIN code is displayed on the publisher
    /// side and entered on the subscriber side"). Our NIRA goes in the publish (``identityResolution``).
    public func answerPairing(pinDigits: Int = 6) {
        self.pinDigits = pinDigits
        manager.answerPairing(offering: .pinCodeDisplay)
        manager.advertiseIdentity()
    }

    /// The NIRA a publishing phone advertises, once it answers pairing.
    public var identityResolution: IdentityResolutionAttribute? { manager.identityResolution }

    /// The accessories this phone is paired with.
    public var records: [PairingRecord] { manager.records }
    public var ownNIK: [UInt8] { manager.ownNIK }
    /// The ND-PMK and cipher suite of the latest pairing or verification with each accessory:
    /// what the phone secures data paths with (nan-wire-reference.md 3.5, 4.2).
    public var dataPathKeys: [MACAddress: PairingManager.DataPathKey] { manager.dataPathKeys }
    /// PASN frame 1 and 3 bodies this phone sent, newest last (replay tests re-send them).
    public var sentPASNFrames: [TxRequest] { manager.sentPASNFrames }
    /// How many times frame 1 went out in the current attempt.
    public var frame1Transmissions: Int { manager.frame1Transmissions }
    /// NIK follow-ups received from the accessory in this run.
    public var nikMessagesReceived: Int { manager.nikMessagesReceived }
    /// The accessory's latest NIK follow-up, with everything it carried beside the NIK.
    public var lastNIKFollowUp: FollowUpMessage? { manager.lastNIKFollowUp }

    /// Takes on what `other` keeps: the same phone under a new NMI (``Scenario``'s address
    /// change) still holds its pairings.
    public func carryOver(from other: PhonePairing) { manager.carryOver(from: other.manager) }

    /// Forgets everything about `accessory`, its keys and its NIK, as a phone whose app was
    /// reinstalled or whose pairing was removed in Settings; the phone's own NIK stays.
    public func forget(_ accessory: MACAddress) { manager.forgetPairing(with: accessory) }

    /// Forgets the NM-TK for `accessory` (the link dropped; hostap `nan_pairing_unpair_peer`):
    /// what a phone does when the accessory went away, before it reconnects.
    public func dropLink(with accessory: MACAddress) { manager.dropLink(with: accessory) }

    /// Where the PIN of an attempt comes from.
    public enum PINSupply {
        /// Asked for at once, when the accessory has accepted PIN bootstrapping: a display the
        /// runner reads, a PIN given in advance. nil: none shown.
        case now(() -> String?)
        /// Entered later with ``enterPIN(_:unavailable:)``, by whoever reads it (a person at a
        /// prompt, an operator's command); PASN waits meanwhile (``awaitingPIN``).
        case later
    }

    /// Pairs with the publisher of `result`: bootstrapping, then PASN with the PIN `pin` gives
    /// once the accessory shows one.
    public func pair(with result: DiscoveryResult, pin: PINSupply) {
        begin(result)
        pinSupply = pin
        manager.pair(with: Self.target(result), options: initiatorOptions)
    }

    /// The attempt waits for its PIN (``PINSupply/later``): the accessory accepted PIN
    /// bootstrapping and shows it now.
    public var awaitingPIN: Bool { manager.awaitingPIN }

    /// Enters the PIN a ``PINSupply/later`` attempt waits for. nil ends the attempt before frame 1
    /// (nothing counts against the accessory's wrong-PIN limit), with `reason` as its detail.
    public func enterPIN(_ pin: String?, unavailable reason: String? = nil) {
        guard manager.awaitingPIN else { return }
        if pin == nil { pinFailure = reason }
        manager.enterPIN(pin)
    }

    /// The person cancels the PIN prompt (iOS: DAError 350017, apple-peer-model.md 2.1): the
    /// attempt ends before frame 1, so no PIN was tried, with the reason `cancelled`.
    public func cancelPINEntry() {
        guard manager.awaitingPIN else { return }
        cancelled = true
        manager.enterPIN(nil)
    }

    /// Verifies the pairing with the publisher of `result`, found through its NIRA; no PIN.
    public func reconnect(with result: DiscoveryResult) {
        begin(result)
        manager.verify(
            with: Self.target(result),
            record: resolve(result),
            advertisesNIRA: result.identityResolution != nil,
            options: initiatorOptions
        )
    }

    /// The cached pairing whose NIK resolves the NIRA of `result` (nan-wire-reference.md 2.17:
    /// every cached NIK with the publisher's current NMI and nonce). A NIK past the lifetime the
    /// accessory gave it in its Key Lifetime KDE resolves nothing: the phone honours it, by the
    /// scheduler's calendar.
    public func resolve(_ result: DiscoveryResult) -> PairingRecord? {
        guard let nira = result.identityResolution else { return nil }
        return manager.resolve(nira, publisher: result.publisherAddress)
    }

    private func begin(_ result: DiscoveryResult) {
        outcome = nil
        pinFailure = nil
        cancelled = false
        accessory = result.publisherAddress
    }

    private static func target(_ result: DiscoveryResult) -> PairingManager.PairingTarget {
        PairingManager.PairingTarget(
            accessory: result.publisherAddress,
            localInstanceID: result.subscribeInstanceID,
            peerInstanceID: result.publishInstanceID,
            address3: result.addressThree
        )
    }

    private var initiatorOptions: PairingManager.InitiatorOptions {
        let deviations: [(Bool, PairingDeviation)] = [
            (options.skipsBootstrapping, .skipsBootstrapping), (options.abortsAfterFrame2, .abortsAfterFrame2),
            (options.corruptsCachedNPK, .corruptsCachedNPK), (options.ignoresFrame2MIC, .ignoresFrame2MIC),
            (options.wrongCookie, .sendsWrongCookie), (options.sendsNIKRegardless, .sendsNIKRegardless),
        ]
        return PairingManager.InitiatorOptions(
            method: options.method,
            suite: options.suite,
            cachesKeys: options.cachesKeys,
            deviations: Set(deviations.filter(\.0).map(\.1)),
            nikForm: options.nikFollowUp.form,
            nikLifetimeSeconds: options.nikFollowUp.lifetimeSeconds
        )
    }

    // MARK: - PairingDelegate

    /// The publishing phone shows a fresh PIN for each bootstrapping (the machine has checked
    /// that the accessory asked for the complement of what we offer).
    public func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision {
        let pin = String((0..<pinDigits).map { _ in Character(String(Int.random(in: 0...9, using: &pinDraws))) })
        pinsShown[peer] = pin
        shownPINs.append(DisplayedPIN(pin: pin, peer: peer))
        log?("phone_pin_shown", ["accessory": .string(peer.description), "digits": .unsigned(UInt64(pinDigits))])
        return .authorize
    }

    public func pairingManager(
        _ manager: PairingManager,
        setupPasswordFor peer: MACAddress,
        bootstrapped: Bool
    ) -> String? {
        bootstrapped ? pinsShown[peer] : nil
    }

    public func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> PINEntry {
        switch pinSupply {
        case .now(let read): read().map(PINEntry.entered) ?? .none
        case .later: .pending
        case nil: .none
        }
    }

    public func pairingManager(_ manager: PairingManager, didReport event: PairingEvent) {
        switch event {
        case .bootstrapComeback(let after):
            log?("bootstrap_comeback", ["afterSeconds": .double(after.seconds)])
        case .bootstrapAuthorized:
            log?("bootstrap_accepted", [:])
        case .frame3Unacknowledged:
            log?("pasn_frame_unacknowledged", ["frame": .unsigned(3)])
        case .storeFailed(let error):
            log?("phone_store_error", ["message": .string("\(error)")])
        case .attemptEnded(let result):
            finish(outcome(of: result))
        default:
            answered(event)
        }
    }

    /// The publishing phone's side of an accessory's pairing: what it asked, how it ended.
    private func answered(_ event: PairingEvent) {
        let answer: PairingAnswer
        switch event {
        case .bootstrapRequested(let peer, let method):
            // The manager reports our side's method; the request named its complement (3.2).
            answer = .bootstrapRequested(peer: peer, method: method.complement)
        case .bootstrapMethodNotOffered(let peer, let method): answer = .methodRefused(peer: peer, method: method)
        case .bootstrapAccepted(let peer): answer = .bootstrapAccepted(peer: peer)
        case .paired(let peer, let suite, _): answer = .paired(peer: peer, suite: suite)
        case .nikExchanged(let peer, _): answer = .nikExchanged(peer: peer)
        case .reconnected(let peer): answer = .reconnected(peer: peer)
        case .pairingFailed(let peer, let failure, _):
            pinsShown[peer] = nil
            answer = .failed(peer: peer, reason: failure.reason)
        case .verificationFailed(let peer, let failure): answer = .failed(peer: peer, reason: failure.reason)
        case .verificationRefused(let peer): answer = .failed(peer: peer, reason: "no-cached-keys")
        default: return
        }
        answers.append(answer)
        log?("phone_answered", answer.logFields)
    }

    private func outcome(of result: PairingAttemptResult) -> PairingOutcome {
        let accessory = accessory ?? manager.device.configuration.address
        switch result {
        case .notStored(_, let error):
            return .failed(
                "phone-store-failed",
                "paired, but the phone could not store the keys (\(error)): nothing was kept, so a reconnect needs a PIN",
                accessory: accessory
            )
        case .noCachedKeys(let advertisesNIRA):
            let detail =
                advertisesNIRA ? "no cached NIK resolves the accessory's NIRA" : "the accessory advertises no NIRA"
            return .failed("no-cached-keys", detail, accessory: accessory)
        case .noPIN:
            if cancelled {
                return .failed(
                    "cancelled",
                    "the person cancelled the PIN entry; no PIN was tried",
                    accessory: accessory
                )
            }
            if let pinFailure { return .failed("pin-unavailable", pinFailure, accessory: accessory) }
            return .failed("no-pin", "the accessory showed no PIN to enter", accessory: accessory)
        case .bootstrapFailed(let failure):
            return .failed(
                PairingOutcome.reason(for: failure),
                "bootstrapping failed: \(failure)",
                accessory: accessory
            )
        case .pasnFailed(let failure):
            return .failed(failure.reason, "PASN failed: \(failure)", accessory: accessory)
        case .reconnected(let result):
            return PairingOutcome(
                result: .reconnected,
                detail: "verified the cached pairing; no PIN",
                accessory: accessory,
                keysCached: true,
                cipherSuite: result.suite.csid
            )
        case .paired(let result, nikSent: false, _):
            return PairingOutcome(
                result: .paired,
                detail: "paired; keys are not cached (caching is off on one side), so a reconnect needs a PIN",
                accessory: accessory,
                cipherSuite: result.suite.csid
            )
        case .paired(let result, nikSent: true, nikReceived: false):
            return PairingOutcome(
                result: .paired,
                reason: "no-nik",
                detail: "paired, but the accessory sent no NIK: a reconnect will need a PIN",
                accessory: accessory,
                cipherSuite: result.suite.csid
            )
        case .paired(let result, nikSent: true, nikReceived: true):
            return PairingOutcome(
                result: .paired,
                detail: "paired; both sides cache keys, so the next connection needs no PIN",
                accessory: accessory,
                keysCached: true,
                cipherSuite: result.suite.csid
            )
        }
    }

    private func finish(_ result: PairingOutcome) {
        guard outcome == nil else { return }
        outcome = result
        var fields: [String: JSONValue] = ["result": .string(result.result.rawValue), "detail": .string(result.detail)]
        if let reason = result.reason { fields["reason"] = .string(reason) }
        log?("pairing_outcome", fields)
    }
}

/// How the phone pairs: what it asks for and what it does when a test wants it to misbehave.
public struct PhonePairingOptions: Hashable, Sendable {
    /// The phone's own method in the bootstrapping request: PIN keypad, as an iPhone sends
    /// (apple-peer-model.md 3).
    public var method: BootstrappingMethods
    public var suite: NANSecurityCipherSuite
    /// The phone keeps NPK and NIK (its DCEA says so and it sends its NIK after pairing).
    public var cachesKeys: Bool
    /// Skip bootstrapping and start PASN at once (a rogue phone; tests of refusal).
    public var skipsBootstrapping: Bool
    /// Stop after PASN frame 2 and send an abort instead of frame 3.
    public var abortsAfterFrame2: Bool
    /// A wrong NPK for verification (tests that the accessory checks frame 3's MIC).
    public var corruptsCachedNPK: Bool
    /// Carry on to frame 3 even when frame 2's MIC does not verify (a rogue phone).
    public var ignoresFrame2MIC: Bool
    /// Answer the comeback with another cookie.
    public var wrongCookie: Bool
    /// Send its NIK after pairing even when caching is off on one side (a rogue phone: tests
    /// that the accessory then keeps its own NIK to itself).
    public var sendsNIKRegardless = false
    /// The layout the phone's NIK goes in (its ``PhoneProfile``'s; a test may try each).
    public var nikFollowUp = PhoneProfile.reference.nikFollowUp

    public init(
        method: BootstrappingMethods = .pinCodeKeypad,
        suite: NANSecurityCipherSuite = .ncsPKPASN128,
        cachesKeys: Bool = true,
        skipsBootstrapping: Bool = false,
        abortsAfterFrame2: Bool = false,
        corruptsCachedNPK: Bool = false,
        ignoresFrame2MIC: Bool = false,
        wrongCookie: Bool = false
    ) {
        self.method = method
        self.suite = suite
        self.cachesKeys = cachesKeys
        self.skipsBootstrapping = skipsBootstrapping
        self.abortsAfterFrame2 = abortsAfterFrame2
        self.corruptsCachedNPK = corruptsCachedNPK
        self.ignoresFrame2MIC = ignoresFrame2MIC
        self.wrongCookie = wrongCookie
    }
}

/// How a phone's pairing or reconnect ended, as `aware-conform pair` / `reconnect` report it.
public struct PairingOutcome: Hashable, Sendable {
    public enum Result: String, Hashable, Sendable {
        case paired
        case reconnected
        case failed
    }

    public var result: Result
    /// Machine-readable: `sae-confirm-mismatch`, `locked-out`, `no-cached-keys`, `timeout`, ...
    public var reason: String?
    /// For people.
    public var detail: String
    public var accessory: MACAddress
    /// Whether both sides exchanged NIKs, so that a later reconnect needs no PIN.
    public var keysCached: Bool
    public var cipherSuite: UInt8?

    public init(
        result: Result,
        reason: String? = nil,
        detail: String,
        accessory: MACAddress,
        keysCached: Bool = false,
        cipherSuite: UInt8? = nil
    ) {
        self.result = result
        self.reason = reason
        self.detail = detail
        self.accessory = accessory
        self.keysCached = keysCached
        self.cipherSuite = cipherSuite
    }

    public var succeeded: Bool { result != .failed }

    public static func failed(_ reason: String, _ detail: String, accessory: MACAddress) -> PairingOutcome {
        PairingOutcome(result: .failed, reason: reason, detail: detail, accessory: accessory)
    }

    /// The runner's name for a bootstrapping failure (nan-wire-reference.md 2.11).
    static func reason(for failure: BootstrapFailure) -> String {
        switch failure {
        case .rejected(let code):
            switch code {
            case 8: "locked-out"
            case 2: "paired-device-limit"
            case 13: "bootstrap-rejected"
            default: "bootstrap-rejected"
            }
        case .timeout: "timeout"
        case .methodMismatch: "bootstrap-method-mismatch"
        case .tooManyComebacks: "too-many-comebacks"
        case .invalidMethod: "invalid-method"
        case .aborted: "aborted"
        }
    }
}

/// What the publishing phone saw of an accessory's pairing (the reverse role).
public enum PairingAnswer: Hashable, Sendable {
    /// The accessory asked to bootstrap with `method`: its own, in the request (3.2).
    case bootstrapRequested(peer: MACAddress, method: BootstrappingMethods)
    /// The phone answered the accessory's comeback with Accepted: the accessory may take the PIN.
    case bootstrapAccepted(peer: MACAddress)
    /// The complement of `method` is not offered: refused (status 1, reason 13).
    case methodRefused(peer: MACAddress, method: BootstrappingMethods)
    /// PASN pairing setup completed with the accessory as the initiator.
    case paired(peer: MACAddress, suite: NANSecurityCipherSuite)
    /// The accessory's NIK came and ours went back: both keep the pairing.
    case nikExchanged(peer: MACAddress)
    /// A verification with cached keys completed.
    case reconnected(peer: MACAddress)
    case failed(peer: MACAddress, reason: String)

    /// PASN pairing setup completed.
    public var isPaired: Bool {
        if case .paired = self { true } else { false }
    }

    public var peer: MACAddress {
        switch self {
        case .bootstrapRequested(let peer, _), .methodRefused(let peer, _), .bootstrapAccepted(let peer),
            .paired(let peer, _),
            .nikExchanged(let peer), .reconnected(let peer), .failed(let peer, _):
            peer
        }
    }

    var logFields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["accessory": .string(peer.description)]
        switch self {
        case .bootstrapRequested(_, let method):
            fields["what"] = .string("bootstrap-requested")
            fields["method"] = .unsigned(UInt64(method.rawValue))
        case .methodRefused(_, let method):
            fields["what"] = .string("method-refused")
            fields["method"] = .unsigned(UInt64(method.rawValue))
        case .paired(_, let suite):
            fields["what"] = .string("paired")
            fields["csid"] = .unsigned(UInt64(suite.csid))
        case .bootstrapAccepted: fields["what"] = .string("bootstrap-accepted")
        case .nikExchanged: fields["what"] = .string("nik-exchanged")
        case .reconnected: fields["what"] = .string("reconnected")
        case .failed(_, let reason):
            fields["what"] = .string("failed")
            fields["reason"] = .string(reason)
        }
        return fields
    }
}
