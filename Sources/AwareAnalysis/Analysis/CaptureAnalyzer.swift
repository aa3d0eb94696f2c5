import AwareWire

/// The passive analyzer: capture frames in, findings out. No I/O, no clock: the same frames
/// always give the same report.
public struct CaptureAnalyzer: Sendable {
    public var rules: [any AnalysisRule]
    public var profile: AnalysisProfile

    public init(profile: AnalysisProfile = AnalysisProfile(), rules: [any AnalysisRule] = AnalysisCatalogue.rules) {
        self.profile = profile
        self.rules = rules
    }

    /// Analyzes the records of a capture file, numbering frames from 1.
    public func analyze(records: [CaptureRecord]) -> AnalysisReport {
        analyze(frames: records.enumerated().map { CaptureFrame(number: $0.offset + 1, record: $0.element) })
    }

    public func analyze(frames: [CaptureFrame]) -> AnalysisReport {
        let context = AnalysisContext(frames: frames, profile: profile)
        var findings: [AnalysisFinding] = []
        for rule in rules { findings += rule.findings(in: context) }
        if !profile.devices.isEmpty {
            let device = context.addresses(of: profile.devices)
            let transmitters = Dictionary(uniqueKeysWithValues: frames.map { ($0.number, $0.rawTransmitter) })
            findings = findings.filter { finding in
                guard let frame = finding.frame, let transmitter = transmitters[frame] ?? nil else { return true }
                return device.contains(transmitter)
            }
        }
        // Stable order: by frame, then by the catalogue's rule order.
        let ruleOrder = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($0.element.id, $0.offset) })
        findings = findings.enumerated().sorted { a, b in
            let frameA = a.element.frame ?? 0
            let frameB = b.element.frame ?? 0
            if frameA != frameB { return frameA < frameB }
            let ruleA = ruleOrder[a.element.ruleID] ?? 0
            let ruleB = ruleOrder[b.element.ruleID] ?? 0
            if ruleA != ruleB { return ruleA < ruleB }
            return a.offset < b.offset
        }.map(\.element)
        return AnalysisReport(
            frameCount: frames.count,
            nanFrameCount: frames.count { $0.management?.body.isNAN == true },
            skippedFrameCount: frames.count { $0.condition != .whole },
            pairingCount: context.pairings.pairings.count,
            rules: rules.map { AnalysisReport.RuleSummary(id: $0.id, title: $0.title, source: $0.source) },
            findings: findings
        )
    }
}
