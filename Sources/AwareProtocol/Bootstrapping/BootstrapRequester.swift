import AwareCore
import AwareWire

/// The bootstrapping requester (the phone; nan-wire-reference.md 3.1, 3.2): it sends an NPBA
/// Request naming its own method, follows Comeback Responses, retransmits, and checks that the
/// accepted method is the complement of its own.
///
/// A value that consumes events and returns actions, one bootstrapping at a time; it never reads
/// a clock and draws the dialog token from the generator passed in.
///
/// ```swift
/// var requester = BootstrapRequester()
/// let target = BootstrapTarget(peerAddress: accessory, localInstanceID: 1, peerInstanceID: 1, method: .pinCodeKeypad)
/// requester.handle(.start(target), now: now, rng: &rng)
/// // [.transmit(follow-up with NPBA Request), .notify(.requestSent(token: t, attempt: 1)), .arm(.retransmit, at: now + 1 s)]
/// ```
public struct BootstrapRequester: Sendable {
    public let configuration: BootstrapRequesterConfiguration
    public private(set) var state: BootstrapRequesterState = .idle

    public init(configuration: BootstrapRequesterConfiguration = BootstrapRequesterConfiguration()) {
        self.configuration = configuration
    }

    /// Set once the responder has accepted.
    public var agreement: BootstrapAgreement? {
        guard case .accepted(let agreement) = state else { return nil }
        return agreement
    }

    public mutating func handle(
        _ event: BootstrapRequesterEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [BootstrapRequesterAction] {
        let transition: BootstrapRequesterTransition
        switch event {
        case .start(let target):
            transition = start(target, now: now, rng: &rng)
        case .received(let message):
            transition = receive(message, now: now)
        case .timerFired(let timer):
            transition = fire(timer, now: now)
        case .abort:
            transition = abort()
        }
        state = transition.state
        return transition.actions
    }

    /// The timer the current state has armed, if any.
    private var armedTimer: BootstrapTimer? {
        switch state {
        case .requesting(let requesting): requesting.timer
        case .awaitingComeback(let waiting): waiting.timer
        case .idle, .accepted, .failed: nil
        }
    }

    private func start(
        _ target: BootstrapTarget,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> BootstrapRequesterTransition {
        let abandoned: [BootstrapRequesterAction] = armedTimer.map { [.cancel($0)] } ?? []
        // 3.2: exactly one bit in a Request.
        guard target.method.isSingleMethod else {
            return BootstrapRequesterTransition(.failed(.invalidMethod), abandoned + [.notify(.failed(.invalidMethod))])
        }
        let request = PairingBootstrappingAttribute(
            dialogToken: target.dialogToken ?? Self.drawDialogToken(using: &rng),
            type: .request,
            status: .accepted,
            methods: target.method
        )
        let requesting = BootstrapRequestingState(
            target: target,
            request: request,
            initialRequest: request,
            comebackRounds: 0
        )
        var transition = requesting.sent(now: now, configuration: configuration)
        transition.actions = abandoned + transition.actions
        return transition
    }

    /// 1...255: hostap never uses token 0, which an Advertise carries (2.18).
    static func drawDialogToken(using rng: inout some RandomNumberGenerator) -> UInt8 {
        UInt8(truncatingIfNeeded: rng.next() % 255) &+ 1
    }

    /// Only a Response from the target with the outstanding dialog token counts; anything else
    /// is someone else's conversation and is ignored without a word.
    private func receive(_ message: FollowUpMessage, now: Instant) -> BootstrapRequesterTransition {
        guard case .requesting(let requesting) = state,
            message.peerAddress == requesting.target.peerAddress,
            let response = message.pairingBootstrapping(type: .response, dialogToken: requesting.dialogToken)
        else {
            return BootstrapRequesterTransition(state, [])
        }
        return requesting.received(response, now: now, configuration: configuration)
    }

    private func fire(_ timer: BootstrapTimer, now: Instant) -> BootstrapRequesterTransition {
        switch state {
        case .requesting(let requesting) where timer == requesting.timer:
            requesting.retryTimerFired(now: now, configuration: configuration)
        case .awaitingComeback(let waiting) where timer == waiting.timer:
            waiting.comebackTimerFired(now: now, configuration: configuration)
        default:
            BootstrapRequesterTransition(state, [])
        }
    }

    private func abort() -> BootstrapRequesterTransition {
        guard let timer = armedTimer else { return BootstrapRequesterTransition(state, []) }
        return BootstrapRequesterTransition(.failed(.aborted), [.cancel(timer), .notify(.failed(.aborted))])
    }
}

/// How persistent a ``BootstrapRequester`` is. The defaults are hostap's
/// (nan-wire-reference.md 3.2).
public struct BootstrapRequesterConfiguration: Hashable, Sendable {
    /// Time between sends of one Request without a Response (`NAN_BOOTSTRAP_RETRY_TIMEOUT_US`).
    public var retryInterval: Interval
    /// Sends of one Request (the first included) before ``BootstrapFailure/timeout``.
    public var maximumSends: Int
    /// Comeback Responses acted on before ``BootstrapFailure/tooManyComebacks``.
    public var maximumComebackRounds: Int

    public init(retryInterval: Interval = .seconds(1), maximumSends: Int = 5, maximumComebackRounds: Int = 8) {
        self.retryInterval = retryInterval
        self.maximumSends = maximumSends
        self.maximumComebackRounds = maximumComebackRounds
    }
}

/// The peer service instance a ``BootstrapRequester`` bootstraps with, and the method the
/// requester will use itself (for example ``BootstrappingMethods/pinCodeKeypad``: "I will type
/// the PIN"; nan-wire-reference.md 3.2).
public struct BootstrapTarget: Hashable, Sendable {
    /// The peer's NMI.
    public var peerAddress: MACAddress
    /// The own subscribe (or publish) instance the follow-ups belong to.
    public var localInstanceID: UInt8
    public var peerInstanceID: UInt8
    /// Exactly one bit.
    public var method: BootstrappingMethods
    /// nil: drawn at random in 1...255. A fixed token is for scripted tests and replays.
    public var dialogToken: UInt8?

    public init(
        peerAddress: MACAddress,
        localInstanceID: UInt8,
        peerInstanceID: UInt8,
        method: BootstrappingMethods,
        dialogToken: UInt8? = nil
    ) {
        self.peerAddress = peerAddress
        self.localInstanceID = localInstanceID
        self.peerInstanceID = peerInstanceID
        self.method = method
        self.dialogToken = dialogToken
    }
}

/// What happens to a ``BootstrapRequester``.
public enum BootstrapRequesterEvent: Hashable, Sendable {
    /// Start bootstrapping; a bootstrapping already under way is abandoned silently.
    case start(BootstrapTarget)
    /// A Follow-up from the discovery engine (``DiscoveryNotification/followUpReceived(_:)``).
    case received(FollowUpMessage)
    case timerFired(BootstrapTimer)
    case abort
}

/// What a ``BootstrapRequester`` tells its owner.
public enum BootstrapRequesterNotification: Hashable, Sendable {
    /// A Request went out; `attempt` counts the sends of this Request from 1 (a comeback Request
    /// starts again at 1).
    case requestSent(token: UInt8, attempt: Int)
    /// The responder needs time (it is showing a PIN, or waiting for its user): the requester
    /// retries with this cookie after `after`.
    case comeback(after: Interval, cookie: [UInt8])
    /// Own method and the peer's (its complement, nan-wire-reference.md 3.2).
    case accepted(method: BootstrappingMethods, peerMethod: BootstrappingMethods)
    case failed(BootstrapFailure)
}

/// Why a ``BootstrapRequester`` gave up.
public enum BootstrapFailure: Hashable, Sendable {
    /// The target's method is not exactly one bit (nan-wire-reference.md 3.2).
    case invalidMethod
    /// No Response after the last of the retransmissions.
    case timeout
    /// An Accepted Response whose method is not the complement of the requested one: the
    /// methods it named.
    case methodMismatch(BootstrappingMethods)
    /// The responder kept answering Comeback.
    case tooManyComebacks
    /// A Rejected Response (2.11: 13 PAIR_BOOTSTRAP_REJECTED, 8 SECURITY_POLICY, 2
    /// RESOURCE_LIMITATION, ...).
    case rejected(reasonCode: UInt8)
    /// The owner sent ``BootstrapRequesterEvent/abort``.
    case aborted
}

/// Where a ``BootstrapRequester`` is (nan-wire-reference.md 3.1: Request, optional Comeback
/// round(s), Accepted).
public enum BootstrapRequesterState: Hashable, Sendable {
    case idle
    /// A Request is out and retransmitted until a Response comes.
    case requesting(BootstrapRequestingState)
    /// The responder answered Comeback; the comeback Request waits for its timer.
    case awaitingComeback(BootstrapComebackState)
    case accepted(BootstrapAgreement)
    case failed(BootstrapFailure)
}

/// The next state of a ``BootstrapRequester`` and what to do to get there.
struct BootstrapRequesterTransition {
    var state: BootstrapRequesterState
    var actions: [BootstrapRequesterAction]

    init(_ state: BootstrapRequesterState, _ actions: [BootstrapRequesterAction]) {
        self.state = state
        self.actions = actions
    }
}

extension BootstrapRequester: ProtocolMachine {
    public static func timerEvent(_ timer: BootstrapTimer) -> BootstrapRequesterEvent { .timerFired(timer) }
}
