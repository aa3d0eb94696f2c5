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
