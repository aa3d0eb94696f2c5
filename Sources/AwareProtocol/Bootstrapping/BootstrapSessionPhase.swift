/// Where one peer's bootstrapping stands at the responder.
public enum BootstrapSessionPhase: Hashable, Sendable {
    /// The owner has been asked; nothing has been sent yet.
    case awaitingDecision
    /// Comeback sent with this cookie; the peer's comeback Request must carry it.
    case authorized(cookie: [UInt8])
    case accepted
    case rejected(reasonCode: UInt8)
}
