/// The service class an app asks for on a Wi-Fi Aware connection (Apple's `WAAccessCategory`:
/// apple-peer-model.md 1.7), with the access category its frames use.
/// Raw values are Apple's names, as profiles spell them; ``commandLineName`` is the
/// `--class` spelling.
public enum ServiceClass: String, Codable, Hashable, Sendable, CaseIterable {
    case bestEffort
    case background
    case interactiveVideo
    case interactiveVoice

    /// `background`, `best-effort`, `interactive-video`, `interactive-voice`.
    public var commandLineName: String {
        switch self {
        case .background: "background"
        case .bestEffort: "best-effort"
        case .interactiveVideo: "interactive-video"
        case .interactiveVoice: "interactive-voice"
        }
    }

    /// The EDCA category (IEEE 802.11-2020 Table 10-1): background → AC_BK, best effort →
    /// AC_BE, interactive video → AC_VI, interactive voice → AC_VO.
    public var accessCategory: AccessCategory {
        switch self {
        case .background: .background
        case .bestEffort: .bestEffort
        case .interactiveVideo: .video
        case .interactiveVoice: .voice
        }
    }
}
