import AwareCore
import AwareWire

/// A data path set up with security carries its data protected with the NDP's TK
/// (nan-wire-reference.md 4.1-4.2): every QoS Data frame between the two NDIs has the Protected bit set.
///
/// A sniffer knows a data path is secured in two ways: it reads an NDP / NDPE attribute with
/// "Security Present" (2.10) in a NAF sent in the clear, or, when the NAFs themselves are
/// protected (between paired devices, 3.8), it sees protected data between the two NDIs: a TK is
/// installed for the pair, so nothing between them may go in the clear. An unprotected QoS Data
/// frame with a body between NDIs shown secured is a finding.
public struct ProtectedDataRule: AnalysisRule {
    public let id = "WA/CAP/PROT-03"
    public let title = "Data on a secured data path is protected"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 4.1, 4.2 (NDP security, TK from the NDP PTK), 2.10 (NDP Control b2)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        // For each NDI, the frame that showed it on a secured data path.
        var securedNDIs: [MACAddress: Int] = [:]
        // For each pair of NDIs, the first protected data frame between them.
        var securedLinks: [Set<MACAddress>: Int] = [:]
        var unprotected: [(frame: CaptureFrame, data: QoSDataFrame)] = []
        for frame in context.judgedFrames {
            if let management = frame.management, case .nanAction(let naf) = management.body {
                for fields in AnalysisContext.dataPathFields(of: naf) where fields.ndpControl.contains(.securityPresent)
                {
                    for ndi in [fields.initiatorNDI, fields.responderNDI].compactMap({ $0 }) {
                        securedNDIs[ndi] = securedNDIs[ndi] ?? frame.number
                    }
                }
                continue
            }
            guard let data = frame.dataFrame, !data.body.isEmpty, !data.address1.isGroup else { continue }
            if data.isProtected {
                let link: Set<MACAddress> = [data.address1, data.address2]
                securedLinks[link] = securedLinks[link] ?? frame.number
            } else {
                unprotected.append((frame, data))
            }
        }
        var found: [AnalysisFinding] = []
        for (frame, data) in unprotected {
            let link: Set<MACAddress> = [data.address1, data.address2]
            let byAttribute = [data.address1, data.address2].compactMap { securedNDIs[$0] }
            let evidence: String
            if byAttribute.count == 2, let since = byAttribute.max(), since < frame.number {
                evidence = "the data path was set up with security (frame \(since))"
            } else if let since = securedLinks[link] {
                // No data flows on a secured NDP before its TK is installed (m4), so protected data
                // anywhere between the two NDIs shows their link is secured.
                evidence = "the two NDIs exchange protected data (frame \(since))"
            } else {
                continue
            }
            found.append(
                finding(
                    frame.number,
                    "QoS Data from \(data.address2) to \(data.address1) is not protected although \(evidence)"
                )
            )
        }
        return found
    }
}
