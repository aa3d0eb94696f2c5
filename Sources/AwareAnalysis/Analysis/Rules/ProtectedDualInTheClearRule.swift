import AwareWire

/// Category 9 (Protected Dual of Public Action) announces a robust frame: on the air it is
/// encrypted with the Protected bit set, so a sniffer cannot read its category at all. A
/// readable category-9 SDF or NAF was sent in the clear. (Frames between a pair that the
/// capture shows paired are reported by WA/CAP/PROT-01 instead.) Data-path NAFs (subtypes 5-9)
/// are left out: hostap sends them as category 9 whenever the NDP carries security, also to a
/// peer it shares no key with yet (`nan_is_naf` accepts category 9 for exactly those subtypes).
public struct ProtectedDualInTheClearRule: AnalysisRule {
    public let id = "WA/CAP/PROT-02"
    public let title = "Category 9 (Protected Dual) frames never go in the clear"
    public let severity = AnalysisSeverity.error
    public let source =
        "nan-wire-reference.md 1.1 (Protected SDF / NAF; hostap nan_is_naf), 3.8; IEEE 802.11-2020 12.6.19 (robust frames)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, !management.header.frameControl.isProtected,
                management.body.actionCategory == NANActionCategory.protectedDualOfPublicAction.rawValue
            else { continue }
            if case .nanAction(let naf) = management.body, (5...9).contains(naf.subtype.rawValue) { continue }
            let header = management.header
            if !header.address1.isGroup,
                context.pairings.pairing(between: header.address1, and: header.address2, at: frame.number) != nil
            {
                continue
            }
            found.append(
                finding(
                    frame.number,
                    "\(AnalysisContext.describe(management)) uses category 9 (Protected Dual) with the Protected bit clear"
                )
            )
        }
        return found
    }
}
