import AwareCore
import AwareWire

/// The bootstrapping responder (the accessory; nan-wire-reference.md 3.1, 3.2), one session per
/// peer NMI: it answers a Request with the complement of the peer's method, at once for
/// auto-accepted methods, otherwise after the owner's decision through a Comeback round.
///
/// A value that consumes events and returns actions; it never reads a clock and draws cookies
/// from the generator passed in.
///
/// ```swift
/// var responder = BootstrapResponder(configuration: .init(offered: .pinCodeDisplay))
/// responder.handle(.received(request), now: now, rng: &rng)
/// // [.notify(.authorizationRequested(peer:, peerInstanceID:, method: .pinCodeDisplay)), .arm(.sessionExpiry, ...)]
/// responder.handle(.decide(peer: phone, .authorize), now: now, rng: &rng)
/// // [.transmit(follow-up with NPBA Response Comeback, cookie)]
/// ```
public struct BootstrapResponder: Sendable {
    public let configuration: BootstrapResponderConfiguration
    public internal(set) var sessions: [MACAddress: BootstrapSession] = [:]

    public init(configuration: BootstrapResponderConfiguration) {
        self.configuration = configuration
    }

    /// Set once the peer's session is accepted (and until it expires or is forgotten).
    public func agreement(with peer: MACAddress) -> BootstrapAgreement? {
        sessions[peer]?.agreement
    }

    public mutating func handle(
        _ event: BootstrapResponderEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [BootstrapResponderAction] {
        switch event {
        case .received(let message):
            receive(message, now: now)
        case .decide(let peer, let decision):
            decide(decision, for: peer, rng: &rng)
        case .timerFired(let timer):
            fire(timer, now: now)
        case .forget(let peer):
            sessions.removeValue(forKey: peer).map { [.cancel($0.expiryTimer)] } ?? []
        }
    }

    private mutating func receive(_ message: FollowUpMessage, now: Instant) -> [BootstrapResponderAction] {
        guard let request = message.pairingBootstrapping(type: .request) else { return [] }
        if let session = sessions[message.peerAddress] {
            if request == session.lastRequest {
                // A retransmission: the peer missed the answer, or it crossed on the air.
                return session.lastResponse.map { [.transmit(session.followUp($0))] } ?? []
            }
            if request == session.openingRequest {
                // A late copy of a Request the session has moved past.
                return []
            }
        }
        switch request.status {
        case .accepted:
            return open(request, from: message, now: now)
        case .comeback:
            return comeback(request, from: message)
        case .rejected, .reserved:
            // No Request carries these statuses (2.18).
            return []
        }
    }

    private mutating func fire(_ timer: BootstrapTimer, now: Instant) -> [BootstrapResponderAction] {
        guard case .sessionExpiry(let peer) = timer, let session = sessions[peer], now >= session.expiresAt else {
            return []
        }
        sessions[peer] = nil
        return [.notify(.sessionExpired(peer: peer))]
    }
}

extension BootstrapResponder {
    /// A status-0 Request opens a new session for the peer, replacing any earlier one
    /// (nan-wire-reference.md 3.2).
    mutating func open(
        _ request: PairingBootstrappingAttribute,
        from message: FollowUpMessage,
        now: Instant
    ) -> [BootstrapResponderAction] {
        var session = BootstrapSession(opening: request, from: message, expiresAt: now + configuration.sessionLifetime)
        let peer = session.peerAddress
        var actions: [BootstrapResponderAction] = []
        // 3.2: exactly one bit, and this side must support the complement.
        if !request.methods.isSingleMethod || !configuration.offered.contains(session.method) {
            let reasonCode = NANReasonCode.pairBootstrapRejected.rawValue
            session.phase = .rejected(reasonCode: reasonCode)
            actions.append(session.answer(.rejected(token: session.dialogToken, reasonCode: reasonCode)))
            actions.append(.notify(.methodNotOffered(peer: peer, requested: request.methods)))
        } else if configuration.autoAccept.contains(session.method) {
            session.phase = .accepted
            actions.append(session.answer(.accepted(token: session.dialogToken, methods: session.method)))
            actions.append(.notify(.accepted(peer: peer, method: session.method)))
        } else {
            session.phase = .awaitingDecision
            actions.append(
                .notify(
                    .authorizationRequested(peer: peer, peerInstanceID: session.peerInstanceID, method: session.method)
                )
            )
        }
        sessions[peer] = session
        actions.append(.arm(session.expiryTimer, at: session.expiresAt))
        return actions
    }

    mutating func decide(
        _ decision: BootstrapDecision,
        for peer: MACAddress,
        rng: inout some RandomNumberGenerator
    ) -> [BootstrapResponderAction] {
        guard var session = sessions[peer], session.phase == .awaitingDecision else { return [] }
        let action: BootstrapResponderAction
        switch decision {
        case .authorize:
            let cookie = Self.drawCookie(using: &rng)
            session.phase = .authorized(cookie: cookie)
            action = session.answer(
                .comeback(token: session.dialogToken, after: configuration.comebackAfterTU, cookie: cookie)
            )
        case .reject(let reasonCode):
            session.phase = .rejected(reasonCode: reasonCode)
            action = session.answer(.rejected(token: session.dialogToken, reasonCode: reasonCode))
        }
        sessions[peer] = session
        return [action]
    }

    /// `NAN_BOOTSTRAP_COOKIE_LEN` 4 (3.2): the four low-order octets of one 64-bit draw, least
    /// significant first.
    static func drawCookie(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        let draw: UInt64 = rng.next()
        return (0..<4).map { UInt8(truncatingIfNeeded: draw >> (8 * $0)) }
    }
}

extension BootstrapResponder {
    /// A comeback Request must belong to an authorized session: same dialog token, same cookie,
    /// same method as the opening Request (nan-wire-reference.md 3.2; hostap also checks its
    /// handle and instance ID). Anything else is refused and ends the session.
    mutating func comeback(
        _ request: PairingBootstrappingAttribute,
        from message: FollowUpMessage
    ) -> [BootstrapResponderAction] {
        let peer = message.peerAddress
        guard var session = sessions[peer], case .authorized(let cookie) = session.phase,
            request.dialogToken == session.dialogToken, request.cookie == cookie,
            request.methods == session.requestedMethod
        else {
            return refuseComeback(request, from: message)
        }
        session.localInstanceID = message.localInstanceID
        session.peerInstanceID = message.peerInstanceID
        session.lastRequest = request
        session.phase = .accepted
        let answer = session.answer(.accepted(token: session.dialogToken, methods: session.method))
        sessions[peer] = session
        return [answer, .notify(.accepted(peer: peer, method: session.method))]
    }

    private mutating func refuseComeback(
        _ request: PairingBootstrappingAttribute,
        from message: FollowUpMessage
    ) -> [BootstrapResponderAction] {
        let peer = message.peerAddress
        var actions: [BootstrapResponderAction] = []
        if let dropped = sessions.removeValue(forKey: peer) {
            actions.append(.cancel(dropped.expiryTimer))
        }
        let refusal = FollowUpRequest(
            localInstanceID: message.localInstanceID,
            peerAddress: peer,
            peerInstanceID: message.peerInstanceID,
            attributes: [
                .pairingBootstrapping(
                    .rejected(token: request.dialogToken, reasonCode: NANReasonCode.pairBootstrapRejected.rawValue)
                )
            ]
        )
        actions.append(.transmit(refusal))
        actions.append(.notify(.invalidComeback(peer: peer)))
        return actions
    }
}

/// What a ``BootstrapResponder`` offers and how it answers (nan-wire-reference.md 3.2).
public struct BootstrapResponderConfiguration: Hashable, Sendable {
    /// The methods this side will use, as advertised in its Publish NPBA (for example
    /// ``BootstrappingMethods/pinCodeDisplay``). A Request is served when the complement of its
    /// method is in here.
    public var offered: BootstrappingMethods
    /// Methods accepted at once, without the owner's decision (wpa_supplicant
    /// `DEFAULT_NAN_AUTO_ACCEPT_PBM`: opportunistic only).
    public var autoAccept: BootstrappingMethods
    /// Comeback After of the Comeback Response, in TU (wpa_supplicant default 1024; the hostap
    /// session recorded 200).
    public var comebackAfterTU: UInt16
    /// How long a peer's session (its token, cookie and last Response) is kept. The PIN the
    /// session shows must outlast a person reading and typing it: phones give that person time
    /// (docs/phones.md: 10-60 s, with no documented timeout on the iPhone's PIN sheet), so the
    /// default keeps the session twice the longest of them after the comeback that showed it.
    public var sessionLifetime: Interval

    public static let defaultSessionLifetime = Interval.seconds(125)

    public init(
        offered: BootstrappingMethods,
        autoAccept: BootstrappingMethods = [.opportunistic],
        comebackAfterTU: UInt16 = 1024,
        sessionLifetime: Interval = defaultSessionLifetime
    ) {
        self.offered = offered
        self.autoAccept = autoAccept
        self.comebackAfterTU = comebackAfterTU
        self.sessionLifetime = sessionLifetime
    }
}

/// What happens to a ``BootstrapResponder``.
public enum BootstrapResponderEvent: Hashable, Sendable {
    /// A Follow-up from the discovery engine (``DiscoveryNotification/followUpReceived(_:)``).
    case received(FollowUpMessage)
    case decide(peer: MACAddress, BootstrapDecision)
    case timerFired(BootstrapTimer)
    /// Drop the peer's session without a word to the peer.
    case forget(peer: MACAddress)
}

/// The owner's answer to ``BootstrapResponderNotification/authorizationRequested(peer:peerInstanceID:method:)``.
public enum BootstrapDecision: Hashable, Sendable {
    /// Go ahead (the accessory has drawn and shown its PIN): the peer is told to come back.
    case authorize
    /// For example 8 SECURITY_POLICY while locked out, 2 RESOURCE_LIMITATION when full
    /// (nan-wire-reference.md 2.11).
    case reject(reasonCode: UInt8)
}

/// What a ``BootstrapResponder`` tells its owner.
public enum BootstrapResponderNotification: Hashable, Sendable {
    /// A peer asks to bootstrap with a method that needs the owner (a PIN to draw and show):
    /// answer with ``BootstrapResponderEvent/decide(peer:_:)``. `method` is this side's.
    case authorizationRequested(peer: MACAddress, peerInstanceID: UInt8, method: BootstrappingMethods)
    /// Bootstrapping is done; `method` is this side's (the complement of the peer's).
    case accepted(peer: MACAddress, method: BootstrappingMethods)
    /// A Request whose method is not one bit, or whose complement is not offered: it was
    /// answered Rejected, reason 13 PAIR_BOOTSTRAP_REJECTED.
    case methodNotOffered(peer: MACAddress, requested: BootstrappingMethods)
    /// A comeback Request with a wrong cookie, token or method, or without a session waiting
    /// for it: answered Rejected (13) and the session dropped.
    case invalidComeback(peer: MACAddress)
    case sessionExpired(peer: MACAddress)
}

extension PairingBootstrappingAttribute {
    /// nan-wire-reference.md 2.18: the methods field is reserved (0) unless Accepted.
    static func accepted(token: UInt8, methods: BootstrappingMethods) -> Self {
        Self(dialogToken: token, type: .response, status: .accepted, methods: methods)
    }

    static func rejected(token: UInt8, reasonCode: UInt8) -> Self {
        Self(dialogToken: token, type: .response, status: .rejected, reasonCode: reasonCode, methods: [])
    }

    /// As the hostap session's frame 5: Comeback After, the cookie, methods 0.
    static func comeback(token: UInt8, after: UInt16, cookie: [UInt8]) -> Self {
        Self(dialogToken: token, type: .response, status: .comeback, comebackAfter: after, cookie: cookie, methods: [])
    }
}

extension BootstrapResponder: ProtocolMachine {
    public static func timerEvent(_ timer: BootstrapTimer) -> BootstrapResponderEvent { .timerFired(timer) }
}
