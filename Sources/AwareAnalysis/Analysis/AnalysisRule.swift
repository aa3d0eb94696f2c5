import AwareCore

/// One conformance rule the passive analyzer checks on a capture: pure (frames in, findings
/// out), identified by a stable ID, and traceable to the section it comes from.
///
/// The analyzer reads a capture twice, as `tshark -2` does (``CaptureAnalysis``): a later
/// frame can change the verdict on an earlier one (a device that advertises key caching
/// further on, a beacon just after an SDF, a pairing redone from scratch). In the first pass a
/// rule learns what it needs of the whole capture (``learn(from:)``; most need nothing), in
/// the second it judges each frame in turn (``findings(on:in:)``), and after the last frame it
/// may report on frames taken together (``findingsAtEnd(in:)``). Between the passes a rule
/// keeps what it learned in its own properties, never the frames: the analyzer keeps one copy
/// of each rule per capture.
public protocol AnalysisRule: Sendable {
    /// Stable, e.g. `WA/CAP/SDF-DW-01`; scripts and CI filters key on it.
    var id: String { get }
    /// One line for `--help` and the report headings.
    var title: String { get }
    /// The severity of what it finds (a rule may report `info` for what it had to skip).
    var severity: AnalysisSeverity { get }
    /// The spec section or reference-document section the rule comes from.
    var source: String { get }
    /// First pass: what the rule must know of the whole capture before it judges a frame.
    mutating func learn(from frame: CaptureFrame)
    /// Second pass: the findings on `frame` (every frame, in capture order), with what the
    /// first pass learned, in `context` and in the rule.
    mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding]
    /// After the second pass: findings about frames taken together, each with the transmitter
    /// (A2) of its frame, by which `--device` keeps or drops it.
    mutating func findingsAtEnd(in context: AnalysisContext) -> [(finding: AnalysisFinding, transmitter: MACAddress?)]
}

extension AnalysisRule {
    public mutating func learn(from frame: CaptureFrame) {}

    public mutating func findingsAtEnd(
        in context: AnalysisContext
    ) -> [(finding: AnalysisFinding, transmitter: MACAddress?)] {
        []
    }
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
