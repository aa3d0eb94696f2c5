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
