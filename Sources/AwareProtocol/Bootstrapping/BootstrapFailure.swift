import AwareWire

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
