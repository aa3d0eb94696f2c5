/// Why an SAE exchange refused a peer's message or could not go on.
public enum SAEError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer's commit-scalar is not in (1, r) (IEEE 802.11-2020 12.4.5.4), or is not as
    /// long as the group's scalars.
    case invalidPeerScalar(reason: String)
    /// The peer's commit-element is not a point of the group (wrong length, a coordinate ≥ p,
    /// off the curve).
    case invalidPeerElement(CryptoError)
    /// The peer sent back our own commit-scalar or commit-element: a reflection attack
    /// (IEEE 802.11-2020 12.4.5.4).
    case reflection
    /// rand or mask is not in (1, r), or their sum mod r is not greater than 1.
    case invalidRandom(reason: String)
    /// The shared point K is the point at infinity.
    case sharedSecretAtInfinity
    /// The peer's confirm does not match the one computed from the exchange: a wrong
    /// password, or a forged message.
    case confirmMismatch
    /// An operation was called before the step it needs (commit before process, process
    /// before confirm).
    case outOfOrder(operation: String, needs: String)
    /// The group arithmetic failed on our own values.
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .invalidPeerScalar(let reason): return "peer commit-scalar refused: \(reason)"
        case .invalidPeerElement(let error): return "peer commit-element refused: \(error)"
        case .reflection: return "peer commit reflects our own commit"
        case .invalidRandom(let reason): return "rand/mask refused: \(reason)"
        case .sharedSecretAtInfinity: return "the shared secret K is the point at infinity"
        case .confirmMismatch: return "SAE confirm mismatch"
        case .outOfOrder(let operation, let needs): return "\(operation) needs \(needs) first"
        case .crypto(let error): return error.description
        }
    }
}
