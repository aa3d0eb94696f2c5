/// One conformance rule the passive analyzer checks on a capture: pure (frames in, findings
/// out), identified by a stable ID, and traceable to the section it comes from.
public protocol AnalysisRule: Sendable {
    /// Stable, e.g. `WA/CAP/SDF-DW-01`; scripts and CI filters key on it.
    var id: String { get }
    /// One line for `--help` and the report headings.
    var title: String { get }
    /// The severity of what it finds (a rule may report `info` for what it had to skip).
    var severity: AnalysisSeverity { get }
    /// The spec section or reference-document section the rule comes from.
    var source: String { get }
    func findings(in context: AnalysisContext) -> [AnalysisFinding]
}

extension AnalysisRule {
    /// A finding of this rule at `frame`, with the rule's severity unless told otherwise.
    func finding(_ frame: Int?, _ message: String, severity: AnalysisSeverity? = nil) -> AnalysisFinding {
        AnalysisFinding(
            frame: frame,
            ruleID: id,
            severity: severity ?? self.severity,
            message: message,
            source: source
        )
    }
}

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

/// One thing a rule found in a capture: where (the frame number, 1-based as Wireshark
/// numbers frames; nil for something about the capture as a whole), which rule, how bad,
/// what, and the source the rule comes from.
public struct AnalysisFinding: Hashable, Sendable {
    /// 1-based frame number, or nil for a finding about the whole capture.
    public var frame: Int?
    public var ruleID: String
    public var severity: AnalysisSeverity
    public var message: String
    public var source: String

    public init(frame: Int?, ruleID: String, severity: AnalysisSeverity, message: String, source: String) {
        self.frame = frame
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.source = source
    }
}

/// Every rule `aware-conform analyze` checks, in the order reports list them. IDs are stable:
/// a rule that changes meaning gets a new ID.
public enum AnalysisCatalogue {
    public static let rules: [any AnalysisRule] = [
        FrameTruncatedRule(),
        FrameCorruptedRule(),
        FrameMalformedRule(),
        ServiceDescriptorConsistencyRule(),
        ServiceIDHashRule(),
        TXTValueLengthRule(),
        TXTPairingKeysRule(),
        TXTProfileValuesRule(),
        PairingAdvertisementRule(),
        BootstrappingExchangeRule(),
        IdentityResolutionAfterPairingRule(),
        ProtectedAfterPairingRule(),
        ProtectedDualInTheClearRule(),
        ProtectedDataRule(),
        SDFDiscoveryWindowRule(),
        DataBurstRule(),
    ]

    /// The rule with `id`, if there is one.
    public static func rule(_ id: String) -> (any AnalysisRule)? { rules.first { $0.id == id } }
}
