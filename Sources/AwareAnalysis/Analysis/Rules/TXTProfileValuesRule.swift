import AwareWire

/// The phone compares `vendorName` and `modelName` with the app's discovery descriptor and
/// shows `pairingName` (apple-peer-model.md 2.1 step 5: the whole string must compare equal).
/// When the profile names them, every publish's TXT record must carry exactly those values.
public struct TXTProfileValuesRule: AnalysisRule {
    public let id = "WA/CAP/TXT-03"
    public let title = "TXT vendor, model and pairing names equal the profile's"
    public let severity = AnalysisSeverity.error
    public let source = "apple-peer-model.md 2.1 step 5 (whole-string compare), 1.6 (PairingInfo)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        let expected = context.profile.expectedTXT
        guard !expected.isEmpty else { return [] }
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty else {
                continue
            }
            let what = AnalysisContext.describe(management)
            for case (_, .success(let txt)) in sdf.txtRecords {
                for (key, value) in expected {
                    guard let octets = txt.valueOctets(forKey: key) else {
                        found.append(finding(frame.number, "\(what): TXT record has no \(key) (profile: \"\(value)\")"))
                        continue
                    }
                    if octets != Array(value.utf8) {
                        found.append(
                            finding(
                                frame.number,
                                "\(what): TXT \(key) is \"\(String(decoding: octets.prefix(80), as: UTF8.self))\", "
                                    + "the profile says \"\(value)\""
                            )
                        )
                    }
                }
            }
        }
        return found
    }
}
