/// A frame the capture cut short (pcap `incl_len` < `orig_len`, a snap length smaller than
/// the frame) cannot be judged: its missing octets would look like a malformed attribute. It
/// is skipped and noted, never parsed as if whole.
public struct FrameTruncatedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-01"
    public let title = "Frames cut short by the snap length are skipped"
    public let severity = AnalysisSeverity.info
    public let source = "pcap record header incl_len/orig_len (tcpdump.org LINKTYPE docs; platform-notes.md 4)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        context.frames.compactMap { frame in
            guard case .truncated(let captured, let original) = frame.condition else { return nil }
            return finding(
                frame.number,
                "the capture kept \(captured) of the frame's \(original) octets (snap length); frame not judged"
            )
        }
    }
}
