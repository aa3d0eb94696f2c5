/// What an analysis found, with the counts a summary line needs.
public struct AnalysisReport: Hashable, Sendable {
    /// A rule as the report lists it.
    public struct RuleSummary: Hashable, Sendable {
        public var id: String
        public var title: String
        public var source: String
    }

    public var frameCount: Int
    public var nanFrameCount: Int
    public var skippedFrameCount: Int
    public var pairingCount: Int
    public var rules: [RuleSummary]
    /// By frame number, then catalogue order.
    public var findings: [AnalysisFinding]

    public func count(_ severity: AnalysisSeverity) -> Int { findings.count { $0.severity == severity } }

    /// Exit status 1 when anything of error severity was found.
    public var hasErrors: Bool { count(.error) > 0 }

    /// The IDs of the rules that found something, in catalogue order.
    public var rulesWithFindings: [String] {
        rules.map(\.id).filter { id in findings.contains { $0.ruleID == id } }
    }

    /// "37 frames (37 NAN, 0 skipped), 1 pairing: 12 errors, 0 warnings, 0 notes from 2 rules"
    public var summary: String {
        let errors = count(.error)
        let warnings = count(.warning)
        let notes = count(.info)
        return "\(frameCount) frame\(frameCount == 1 ? "" : "s") (\(nanFrameCount) NAN, \(skippedFrameCount) skipped), "
            + "\(pairingCount) pairing\(pairingCount == 1 ? "" : "s"): "
            + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), "
            + "\(notes) note\(notes == 1 ? "" : "s") from \(rulesWithFindings.count) rule"
            + (rulesWithFindings.count == 1 ? "" : "s")
    }
}
