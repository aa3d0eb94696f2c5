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
