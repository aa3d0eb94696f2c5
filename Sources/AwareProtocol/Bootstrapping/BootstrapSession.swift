import AwareCore
import AwareWire

/// One peer's bootstrapping at a ``BootstrapResponder``, keyed by the peer's NMI.
public struct BootstrapSession: Hashable, Sendable {
    public let peerAddress: MACAddress
    /// Where answers go: the addressed own instance and the peer's, from the latest Request.
    public internal(set) var localInstanceID: UInt8
    public internal(set) var peerInstanceID: UInt8
    public let dialogToken: UInt8
    /// The peer's method, and its complement: this side's (nan-wire-reference.md 3.2).
    public let requestedMethod: BootstrappingMethods
    public var method: BootstrappingMethods { requestedMethod.complement }
    public internal(set) var phase: BootstrapSessionPhase
    /// The status-0 Request that opened the session.
    public let openingRequest: PairingBootstrappingAttribute
    /// The latest Request and the Response to it; a retransmission of that Request gets that
    /// Response again.
    public internal(set) var lastRequest: PairingBootstrappingAttribute
    public internal(set) var lastResponse: PairingBootstrappingAttribute?
    public let expiresAt: Instant

    init(opening request: PairingBootstrappingAttribute, from message: FollowUpMessage, expiresAt: Instant) {
        peerAddress = message.peerAddress
        localInstanceID = message.localInstanceID
        peerInstanceID = message.peerInstanceID
        dialogToken = request.dialogToken
        requestedMethod = request.methods
        phase = .awaitingDecision
        openingRequest = request
        lastRequest = request
        lastResponse = nil
        self.expiresAt = expiresAt
    }

    var expiryTimer: BootstrapTimer { .sessionExpiry(peer: peerAddress) }

    /// Set once the session is accepted.
    public var agreement: BootstrapAgreement? {
        guard phase == .accepted else { return nil }
        return BootstrapAgreement(
            peerAddress: peerAddress,
            localInstanceID: localInstanceID,
            peerInstanceID: peerInstanceID,
            method: method,
            peerMethod: requestedMethod,
            request: lastRequest
        )
    }

    /// Records `response` as the answer to ``lastRequest`` and addresses it to the peer
    /// (2.18: Responses mirror the Request's dialog token).
    mutating func answer(_ response: PairingBootstrappingAttribute) -> BootstrapResponderAction {
        lastResponse = response
        return .transmit(followUp(response))
    }

    func followUp(_ response: PairingBootstrappingAttribute) -> FollowUpRequest {
        FollowUpRequest(
            localInstanceID: localInstanceID,
            peerAddress: peerAddress,
            peerInstanceID: peerInstanceID,
            attributes: [.pairingBootstrapping(response)]
        )
    }
}

/// Where one peer's bootstrapping stands at the responder.
public enum BootstrapSessionPhase: Hashable, Sendable {
    /// The owner has been asked; nothing has been sent yet.
    case awaitingDecision
    /// Comeback sent with this cookie; the peer's comeback Request must carry it.
    case authorized(cookie: [UInt8])
    case accepted
    case rejected(reasonCode: UInt8)
}
