/// How bad a finding is. `error` is a conformance failure (exit status 1); `warning` is
/// something a peer may trip over; `info` notes what the capture let the analyzer see (a
/// frame it had to skip), not what the device did.
public enum AnalysisSeverity: String, CaseIterable, Hashable, Sendable, Comparable {
    case error
    case warning
    case info

    /// Errors first, then warnings, then notes: the order people read them in.
    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }

    public static func < (lhs: AnalysisSeverity, rhs: AnalysisSeverity) -> Bool { lhs.rank < rhs.rank }

    /// "ERROR", "WARNING", "INFO" for the text report.
    public var label: String { rawValue.uppercased() }
}
