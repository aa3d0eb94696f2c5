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

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        guard !context.pairings.pairings.isEmpty else { return [] }
        let times = Dictionary(uniqueKeysWithValues: context.frames.map { ($0.number, $0.timestamp) })
        let restarts = bootstrappingRequests(in: context)
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
            var message =
                "\(AnalysisContext.describe(management)) is not protected (Protected bit clear, category "
                + "\(management.body.actionCategory.map(String.init) ?? "?")) although the two paired in frame "
                + "\(pairing.completedAt)"
            var severity = AnalysisSeverity.error
            let completedTime = times[pairing.completedAt] ?? frame.timestamp
            let restart = restarts.first { request in
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
                message +=
                    "; they bootstrap again in frame \(restart.frame), so one of them may have lost the keys (reset)"
            }
            found.append(finding(frame.number, message, severity: severity))
        }
        return found
    }

    /// Bootstrapping Requests (NPBA type Request, 3.2): the first step of a pairing from scratch.
    private func bootstrappingRequests(
        in context: AnalysisContext
    ) -> [(
        frame: Int, requester: MACAddress, responder: MACAddress
    )] {
        context.judgedFrames.compactMap { frame in
            guard let management = frame.management, let sdf = frame.serviceDiscovery,
                sdf.pairingBootstrapping.contains(where: { $0.type == .request })
            else { return nil }
            return (frame.number, management.header.address2, management.header.address1)
        }
    }
}
