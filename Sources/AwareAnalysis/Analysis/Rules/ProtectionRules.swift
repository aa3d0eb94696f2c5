import AwareCore
import AwareWire

/// Once two devices have paired they share an NM-TK, and every unicast SDF and NAF between them
/// must go protected (Protected bit set, CCMP/GCMP; category 9 underneath); hostap drops
/// unprotected unicast NAN frames from a paired peer. A sniffer sees the Protected bit, so an
/// unprotected frame between a paired pair is a finding. The pairing lasts until the two start
/// PASN again.
///
/// What a sniffer cannot see softens two cases to warnings:
/// - a frame heard within one discovery-window length (16 TU) of PASN frame 3 may have been
///   queued before the keys were installed (hostap installs them on frame 3's TX status);
/// - a frame between the pair that later bootstraps or runs PASN setup again (not
///   verification): pairing from scratch means one of them had lost the keys (a factory reset),
///   which is not on the air.
public struct ProtectedAfterPairingRule: AnalysisRule {
    public let id = "WA/CAP/PROT-01"
    public let title = "After pairing, unicast SDFs and NAFs are protected"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.8 (protected management frames after pairing), 1.1, 3.1, 3.2"
    /// One discovery window, in nanoseconds of capture time.
    public var keyInstallationGrace: UInt64 = 16 * 1_024 * 1_000

    /// Bootstrapping Requests (NPBA type Request, 3.2), the first step of a pairing from
    /// scratch, learned in the first pass: one that follows an unprotected frame shows that a
    /// device may have lost its keys.
    private var bootstrappingRequests: [(frame: Int, requester: MACAddress, responder: MACAddress)] = []

    public init() {}

    public mutating func learn(from frame: CaptureFrame) {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery,
            sdf.pairingBootstrapping.contains(where: { $0.type == .request })
        else { return }
        bootstrappingRequests.append((frame.number, management.header.address2, management.header.address1))
    }

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard !context.pairings.pairings.isEmpty, frame.isJudged, let management = frame.management,
            !management.header.address1.isGroup, !management.header.frameControl.isProtected,
            management.body.isNANAction,
            let pairing = context.pairings.pairing(
                between: management.header.address1,
                and: management.header.address2,
                at: frame.number
            )
        else { return [] }
        var message =
            "\(AnalysisContext.describe(management)) is not protected (Protected bit clear, category "
            + "\(management.body.actionCategory.map(String.init) ?? "?")) although the two paired in frame "
            + "\(pairing.completedAt)"
        var severity = AnalysisSeverity.error
        let completedTime = context.completionTimes[pairing.completedAt] ?? frame.timestamp
        let restart = bootstrappingRequests.first { request in
            request.frame >= frame.number && pairing.supersededAt.map { request.frame < $0 } ?? true
                && Set([request.requester, request.responder]) == Set([pairing.initiator, pairing.responder])
        }
        if frame.timestamp >= completedTime, frame.timestamp - completedTime <= keyInstallationGrace {
            severity = .warning
            message += ", within 16 TU: it may have been queued before the keys were installed"
        } else if pairing.supersededBySetup, let next = pairing.supersededAt {
            severity = .warning
            message += "; they pair from scratch in frame \(next), so one of them may have lost the keys (reset)"
        } else if let restart {
            severity = .warning
            message += "; they bootstrap again in frame \(restart.frame), so one of them may have lost the keys (reset)"
        }
        return [finding(frame.number, message, severity: severity)]
    }
}

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

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, !management.header.frameControl.isProtected,
            management.body.actionCategory == NANActionCategory.protectedDualOfPublicAction.rawValue
        else { return [] }
        if case .nanAction(let naf) = management.body, (5...9).contains(naf.subtype.rawValue) { return [] }
        let header = management.header
        if !header.address1.isGroup,
            context.pairings.pairing(between: header.address1, and: header.address2, at: frame.number) != nil
        {
            return []
        }
        return [
            finding(
                frame.number,
                "\(AnalysisContext.describe(management)) uses category 9 (Protected Dual) with the Protected bit clear"
            )
        ]
    }
}

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

    /// For each NDI, the frame that showed it on a secured data path (first pass).
    private var securedNDIs: [MACAddress: Int] = [:]
    /// For each pair of NDIs, the first protected data frame between them (first pass).
    private var securedLinks: [Set<MACAddress>: Int] = [:]

    public init() {}

    public mutating func learn(from frame: CaptureFrame) {
        guard frame.isJudged else { return }
        if let management = frame.management, case .nanAction(let naf) = management.body {
            for fields in AnalysisContext.dataPathFields(of: naf) where fields.ndpControl.contains(.securityPresent) {
                for ndi in [fields.initiatorNDI, fields.responderNDI].compactMap({ $0 }) {
                    securedNDIs[ndi] = securedNDIs[ndi] ?? frame.number
                }
            }
            return
        }
        guard let data = frame.dataFrame, !data.body.isEmpty, !data.address1.isGroup, data.isProtected else { return }
        let link: Set<MACAddress> = [data.address1, data.address2]
        securedLinks[link] = securedLinks[link] ?? frame.number
    }

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, frame.management == nil, let data = frame.dataFrame, !data.body.isEmpty,
            !data.address1.isGroup, !data.isProtected
        else { return [] }
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
            return []
        }
        return [
            finding(
                frame.number,
                "QoS Data from \(data.address2) to \(data.address1) is not protected although \(evidence)"
            )
        ]
    }
}
