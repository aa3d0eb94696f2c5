import AwareCore
import AwareWire

/// A device that paired and caches keys (DCEA NPK/NIK Caching) must carry a NIRA in its
/// publishes from then on: it is how a phone that cached its NIK recognises it under a new
/// NMI and runs verification instead of asking for a PIN again (nan-wire-reference.md 3.3,
/// 3.7); hostap adds it whenever verification is enabled and a NIK exists.
public struct IdentityResolutionAfterPairingRule: AnalysisRule {
    public let id = "WA/CAP/NIRA-01"
    public let title = "After pairing, a key-caching device publishes a NIRA"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.3 (NIRA added with pairing verification), 3.7, 2.17"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        let caching = context.cachingDevices
        var pairedAt: [MACAddress: Int] = [:]
        for pairing in context.pairings.pairings where caching.contains(pairing.responder) {
            pairedAt[pairing.responder] = min(pairedAt[pairing.responder] ?? .max, pairing.completedAt)
        }
        guard !pairedAt.isEmpty else { return [] }
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty,
                let paired = pairedAt[management.header.address2], frame.number > paired,
                sdf.identityResolution == nil
            else { continue }
            found.append(
                finding(
                    frame.number,
                    "\(AnalysisContext.describe(management)) has no NIRA although the device paired in frame "
                        + "\(paired) and advertises NPK/NIK caching"
                )
            )
        }
        return found
    }
}
