import AwareWire

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
