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
