import AwareWire

/// Once two devices have paired they share an NM-TK, and every unicast SDF and NAF between them
/// must go protected (Protected bit set, CCMP/GCMP; category 9 underneath); hostap drops
/// unprotected unicast NAN frames from a paired peer. A sniffer sees the Protected bit, so an
/// unprotected frame between a paired pair, and a category-9 frame sent in the clear, are
/// findings. The pairing lasts until the two start PASN again.
public struct ProtectedAfterPairingRule: AnalysisRule {
    public let id = "WA/CAP/PROT-01"
    public let title = "After pairing, unicast SDFs and NAFs between the pair are protected"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.8 (protected management frames after pairing), 1.1, 3.1"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        guard !context.pairings.pairings.isEmpty else { return [] }
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, !management.header.address1.isGroup,
                !management.header.frameControl.isProtected, management.body.isNANAction,
                let pairing = context.pairings.pairing(
                    between: management.header.address1,
                    and: management.header.address2,
                    at: frame.number
                )
            else { continue }
            found.append(
                finding(
                    frame.number,
                    "\(AnalysisContext.describe(management)) is not protected (Protected bit clear, category "
                        + "\(management.body.actionCategory.map(String.init) ?? "?")) although the two paired in frame "
                        + "\(pairing.completedAt)"
                )
            )
        }
        return found
    }
}
