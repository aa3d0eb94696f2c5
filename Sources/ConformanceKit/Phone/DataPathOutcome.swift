import AwareProtocol
import AwareWire

/// Where one of the phone's data path requests stands.
public enum DataPathOutcome: Hashable, Sendable {
    case pending
    case established(NDPLink)
    case failed(NDPFailure)
    case terminated(reason: NANReasonCode, byPeer: Bool)

    public var link: NDPLink? {
        if case .established(let link) = self { link } else { nil }
    }

    /// The NAN reason code of a refusal or termination, when there was one.
    public var reason: NANReasonCode? {
        switch self {
        case .failed(let failure): failure.reason
        case .terminated(let reason, _): reason
        default: nil
        }
    }
}
