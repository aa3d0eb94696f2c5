import AwareWire

/// The phone reads each TXT value as UTF-8 of at most 63 octets and may truncate a longer one
/// (WAPairedDevice.PairingInfo, apple-peer-model.md 1.6); a TXT record whose length octets run
/// past the Service Info is unreadable (RFC 6763 6.1).
public struct TXTValueLengthRule: AnalysisRule {
    public let id = "WA/CAP/TXT-01"
    public let title = "TXT records parse; values are UTF-8, at most 63 octets"
    public let severity = AnalysisSeverity.error
    public let source = "apple-peer-model.md 1.6 (PairingInfo: <= 63-byte UTF-8); RFC 6763 6.1, 6.3"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery else { continue }
            let what = AnalysisContext.describe(management)
            for (instanceID, record) in sdf.txtRecords {
                switch record {
                case .failure(let error):
                    found.append(
                        finding(frame.number, "\(what): TXT record of instance \(instanceID) is malformed: \(error)")
                    )
                case .success(let txt):
                    for string in txt.strings {
                        guard let equals = string.firstIndex(of: UInt8(ascii: "=")) else { continue }
                        let key = String(decoding: string[..<equals], as: UTF8.self)
                        let value = Array(string[(equals + 1)...])
                        if value.count > DNSSDTXTRecord.phoneMaximumValueOctets {
                            found.append(
                                finding(
                                    frame.number,
                                    "\(what): TXT key \(key) has a \(value.count)-octet value; the phone reads at most "
                                        + "\(DNSSDTXTRecord.phoneMaximumValueOctets)"
                                )
                            )
                        }
                        if String(validating: value, as: UTF8.self) == nil {
                            found.append(finding(frame.number, "\(what): TXT key \(key) has a value that is not UTF-8"))
                        }
                    }
                }
            }
        }
        return found
    }
}
