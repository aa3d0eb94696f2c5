import AwareCore
import AwareWire

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
