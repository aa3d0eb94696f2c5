import AwareWire

/// A data path set up with security (NDP Control "Security Present", nan-wire-reference.md
/// 2.10, 4.1-4.2) carries its data protected with the NDP's TK: every QoS Data frame between
/// the two NDIs after the setup has the Protected bit set.
public struct ProtectedDataRule: AnalysisRule {
    public let id = "WA/CAP/PROT-03"
    public let title = "Data frames on a secured data path are protected"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 4.1, 4.2 (NDP security, TK from the NDP PTK), 2.10 (NDP Control b2)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        // The NDIs of each secured NDP and the frame that set it up.
        var securedNDIs: [MACAddress: Int] = [:]
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            if let management = frame.management, case .nanAction(let naf) = management.body {
                for case .ndp(let ndp) in naf.attributes where ndp.common.ndpControl.contains(.securityPresent) {
                    for ndi in [ndp.common.initiatorNDI, ndp.common.responderNDI].compactMap({ $0 }) {
                        securedNDIs[ndi] = securedNDIs[ndi] ?? frame.number
                    }
                }
                continue
            }
            guard let data = frame.dataFrame, !data.isProtected, !data.body.isEmpty else { continue }
            let endpoints = [data.address1, data.address2].filter { securedNDIs[$0] != nil }
            guard endpoints.count == 2, let since = endpoints.compactMap({ securedNDIs[$0] }).max() else { continue }
            found.append(
                finding(
                    frame.number,
                    "QoS Data from \(data.address2) to \(data.address1) is not protected although the data path was "
                        + "set up with security (frame \(since))"
                )
            )
        }
        return found
    }
}
