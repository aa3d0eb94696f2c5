/// Every whole frame must parse: the 802.11 header, and for NAN frames every attribute, whose
/// length fields must exactly cover the body (hostap `nan_parse_attrs` drops the whole frame
/// otherwise). The message names the structure, field and octet offset (from Frame Control).
public struct FrameMalformedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-03"
    public let title = "Frames and NAN attributes are well formed"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 1.1, 2.1 (attribute header; hostap nan_parse_attrs), 2.2-2.18"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        context.frames.compactMap { frame in
            guard frame.condition == .whole, case .failure(let error)? = frame.parsed else { return nil }
            return finding(frame.number, "malformed \(frame.octets.count)-octet frame: \(error)")
        }
    }
}
