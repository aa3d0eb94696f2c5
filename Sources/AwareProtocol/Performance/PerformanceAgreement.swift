/// Whether two sides of a data path asked for the same performance: Apple warns that
/// "mismatched performance modes lead to an undefined behavior" (apple-peer-model.md 1.7), so the
/// bench reports a mismatch instead of tolerating it.
public enum PerformanceAgreement: Hashable, Sendable {
    case agreed(PerformanceMode, AccessCategory)
    case modeMismatch(local: PerformanceMode, peer: PerformanceMode)
    /// Same mode, different service classes: legal (each side's frames use their own category),
    /// but reported, since the phone's report shows only categories in use.
    case classMismatch(mode: PerformanceMode, local: ServiceClass, peer: ServiceClass)

    public init(local: (PerformanceMode, ServiceClass), peer: (PerformanceMode, ServiceClass)) {
        if local.0 != peer.0 {
            self = .modeMismatch(local: local.0, peer: peer.0)
        } else if local.1 != peer.1 {
            self = .classMismatch(mode: local.0, local: local.1, peer: peer.1)
        } else {
            self = .agreed(local.0, local.1.accessCategory)
        }
    }

    /// Whether a data path can run as both asked.
    public var isAgreed: Bool {
        if case .agreed = self { true } else { false }
    }
}
