import AwareWire

/// A publish that advertises pairing setup (DCEA bit 8) is what AccessorySetupKit shows in its
/// picker, and only when the TXT record has both `vendorName` and `modelName`; the name shown is
/// `pairingName` (apple-peer-model.md 2.1 steps 2-6). Missing vendor or model: the accessory
/// never appears (error). Missing pairingName: it appears without its name (warning).
public struct TXTPairingKeysRule: AnalysisRule {
    public let id = "WA/CAP/TXT-02"
    public let title = "Pairing publishes carry vendorName, modelName, pairingName"
    public let severity = AnalysisSeverity.error
    public let source = "apple-peer-model.md 1.6 (PairingInfo TXT keys), 2.1 (discovery descriptor steps 2-6)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty,
                sdf.deviceCapabilityExtension?.pairingSetupEnabled == true
            else { continue }
            let what = AnalysisContext.describe(management)
            let records = sdf.txtRecords.compactMap { try? $0.record.get() }
            guard !records.isEmpty else {
                found.append(finding(frame.number, "\(what) offers pairing setup but carries no DNS-SD TXT record"))
                continue
            }
            for key in ["vendorName", "modelName"]
            where !records.contains(where: { $0.valueOctets(forKey: key) != nil }) {
                found.append(finding(frame.number, "\(what) offers pairing setup but its TXT record has no \(key)"))
            }
            if !records.contains(where: { $0.valueOctets(forKey: "pairingName") != nil }) {
                found.append(
                    finding(
                        frame.number,
                        "\(what) offers pairing setup but its TXT record has no pairingName",
                        severity: .warning
                    )
                )
            }
        }
        return found
    }
}
