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
