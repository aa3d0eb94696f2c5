/// Why a PASN exchange did not complete. ``reason`` is the machine-readable name the runner
/// reports.
public enum PASNFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer's SAE confirm does not match ours: a wrong PIN (or a forged frame).
    case saeConfirmMismatch
    /// The MIC of frame 2 or 3 does not verify.
    case micMismatch(frame: UInt16)
    /// The responder answered frame 1 with a failure status.
    case rejected(status: UInt16)
    /// The peer aborted with a failure status after our frame.
    case peerAborted(status: UInt16)
    /// No answer in time.
    case timeout(waitingFor: UInt16)
    /// The NPKID names no cached pairing: the peer forgot us, or we forgot it (3.7).
    case unknownNPKID
    /// A frame seen before was sent again (a replayed frame 1 or 3).
    case replay(frame: UInt16)
    /// A frame lacks something the exchange needs, or carries something it does not allow.
    case invalidFrame(frame: UInt16, reason: String)
    /// The peer's SAE commit or ECDH key is refused (not on the curve, out of range, ours
    /// reflected).
    case invalidPeerKey(frame: UInt16, reason: String)
    /// The owner ended the exchange.
    case aborted
    /// Our own side could not compute (a bug or an exhausted random source).
    case internalError(String)

    public var reason: String {
        switch self {
        case .saeConfirmMismatch: "sae-confirm-mismatch"
        case .micMismatch: "mic-mismatch"
        case .rejected(let status):
            switch status {
            case PASNStatusCode.requestDeclined: "locked-out"
            case PASNStatusCode.invalidPMKID: "no-cached-keys"
            default: "rejected"
            }
        case .peerAborted: "peer-aborted"
        case .timeout: "timeout"
        case .unknownNPKID: "unknown-npkid"
        case .replay: "replay"
        case .invalidFrame: "malformed-frame"
        case .invalidPeerKey: "invalid-peer-key"
        case .aborted: "aborted"
        case .internalError: "internal-error"
        }
    }

    public var description: String {
        switch self {
        case .saeConfirmMismatch: "the peer's SAE confirm does not match (wrong PIN?)"
        case .micMismatch(let frame): "the MIC of PASN frame \(frame) does not verify"
        case .rejected(let status): "the responder refused with status \(status)"
        case .peerAborted(let status): "the peer aborted with status \(status)"
        case .timeout(let frame): "no PASN frame \(frame) in time"
        case .unknownNPKID: "the NPKID names no cached pairing"
        case .replay(let frame): "PASN frame \(frame) was seen before (replay)"
        case .invalidFrame(let frame, let reason): "PASN frame \(frame) refused: \(reason)"
        case .invalidPeerKey(let frame, let reason): "the key in PASN frame \(frame) is refused: \(reason)"
        case .aborted: "aborted"
        case .internalError(let reason): "internal error: \(reason)"
        }
    }
}
