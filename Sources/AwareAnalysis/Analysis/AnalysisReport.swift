import AwareCore
import AwareWire

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

extension AnalysisReport {
    /// The report for people: one block per rule that found something (errors first), each
    /// finding on its own line with its frame number, then the summary line.
    public func text(capture: String) -> [String] {
        var lines = ["\(capture): \(frameCount) frame\(frameCount == 1 ? "" : "s") analyzed", ""]
        let groups = rules.compactMap { rule -> (RuleSummary, [AnalysisFinding])? in
            let found = findings.filter { $0.ruleID == rule.id }
            return found.isEmpty ? nil : (rule, found)
        }
        let ordered = groups.enumerated().sorted { a, b in
            let worstA = a.element.1.map(\.severity).min() ?? .info
            let worstB = b.element.1.map(\.severity).min() ?? .info
            return worstA != worstB ? worstA < worstB : a.offset < b.offset
        }.map(\.element)
        for (rule, found) in ordered {
            let worst = found.map(\.severity).min() ?? .info
            lines.append("\(worst.label) \(rule.id) — \(rule.title) [\(found.count)]")
            lines.append("  source: \(rule.source)")
            for finding in found {
                let place = finding.frame.map { "frame \($0)" } ?? "capture"
                let tag = finding.severity == worst ? "" : " (\(finding.severity.rawValue))"
                lines.append("  \(place)\(tag): \(finding.message)")
            }
            lines.append("")
        }
        if ordered.isEmpty { lines.append("No findings.") }
        lines.append("Summary: \(summary)")
        return lines
    }

    /// The report as one JSON object (docs/reference/analyze-json.md describes every member).
    public func json(capture: String, format: String?, profile: String?, captureError: String? = nil) -> JSONValue {
        .object([
            ("capture", .string(capture)),
            ("format", format.map { .string($0) } ?? .null),
            ("captureError", captureError.map { .string($0) } ?? .null),
            ("profile", profile.map { .string($0) } ?? .null),
            (
                "summary",
                .object([
                    ("frames", .unsigned(UInt64(frameCount))),
                    ("nanFrames", .unsigned(UInt64(nanFrameCount))),
                    ("skippedFrames", .unsigned(UInt64(skippedFrameCount))),
                    ("pairings", .unsigned(UInt64(pairingCount))),
                    ("errors", .unsigned(UInt64(count(.error)))),
                    ("warnings", .unsigned(UInt64(count(.warning)))),
                    ("notes", .unsigned(UInt64(count(.info)))),
                    ("text", .string(summary)),
                ])
            ),
            (
                "findings",
                .array(
                    findings.map { finding in
                        .object([
                            ("frame", finding.frame.map { .unsigned(UInt64($0)) } ?? .null),
                            ("rule", .string(finding.ruleID)),
                            ("severity", .string(finding.severity.rawValue)),
                            ("message", .string(finding.message)),
                            ("source", .string(finding.source)),
                        ])
                    }
                )
            ),
            (
                "rules",
                .array(
                    rules.map { rule in
                        .object([
                            ("id", .string(rule.id)),
                            ("title", .string(rule.title)),
                            ("source", .string(rule.source)),
                            ("findings", .unsigned(UInt64(findings.count { $0.ruleID == rule.id }))),
                        ])
                    }
                )
            ),
        ])
    }
}
