/// Why a publish or subscribe ended, with nl80211's values (`enum nl80211_nan_func_term_reason`:
/// 0 user request, 1 TTL expired, 2 error; nan-wire-reference.md 6).
public enum TerminationReason: UInt8, Hashable, Sendable, CaseIterable {
    case userRequested = 0
    case timeToLiveExpired = 1
    case failure = 2

    public var name: String {
        switch self {
        case .userRequested: "user request"
        case .timeToLiveExpired: "TTL expired"
        case .failure: "error"
        }
    }
}
