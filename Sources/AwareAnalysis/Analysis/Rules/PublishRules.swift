import AwareWire

/// A publish's Service ID is the first 6 octets of SHA-256 of the lower-cased service name; a
/// phone subscribing by name computes the same hash and never matches anything else. Checked
/// when the names are known (the profile or --service), for every Publish.
public struct ServiceIDHashRule: AnalysisRule {
    public let id = "WA/CAP/SID-01"
    public let title = "Published Service IDs are the hash of a known name"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 2.4 (Service ID, hostap nan_de_derive_service_id), 8.6"

    /// The profile's service IDs, hashed once per capture.
    private var known: [(name: String, id: ServiceID)]?

    public init() {}

    public mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        let known = self.known ?? context.profile.serviceIDs
        self.known = known
        guard !known.isEmpty, frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery else {
            return []
        }
        let expected = known.map { "\($0.name) -> \($0.id)" }.joined(separator: ", ")
        var found: [AnalysisFinding] = []
        for case .serviceDescriptor(let sda) in sdf.attributes
        where sda.type == .publish && !known.contains(where: { $0.id == sda.serviceID }) {
            found.append(
                finding(
                    frame.number,
                    "\(AnalysisContext.describe(management)): service ID \(sda.serviceID) is not the hash of "
                        + "any known service name (\(expected))"
                )
            )
        }
        return found
    }
}

/// The phone reads each TXT value as UTF-8 of at most 63 octets and may truncate a longer one
/// (WAPairedDevice.PairingInfo, apple-peer-model.md 1.6); a TXT record whose length octets run
/// past the Service Info is unreadable (RFC 6763 6.1).
public struct TXTValueLengthRule: AnalysisRule {
    public let id = "WA/CAP/TXT-01"
    public let title = "TXT records parse; values are UTF-8, at most 63 octets"
    public let severity = AnalysisSeverity.error
    public let source = "apple-peer-model.md 1.6 (PairingInfo: <= 63-byte UTF-8); RFC 6763 6.1, 6.3"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery else { return [] }
        let what = AnalysisContext.describe(management)
        var found: [AnalysisFinding] = []
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
        return found
    }
}

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

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery,
            !sdf.publishes.isEmpty, sdf.deviceCapabilityExtension?.pairingSetupEnabled == true
        else { return [] }
        let what = AnalysisContext.describe(management)
        let records = sdf.txtRecords.compactMap { try? $0.record.get() }
        guard !records.isEmpty else {
            return [finding(frame.number, "\(what) offers pairing setup but carries no DNS-SD TXT record")]
        }
        var found: [AnalysisFinding] = []
        for key in ["vendorName", "modelName"] where !records.contains(where: { $0.valueOctets(forKey: key) != nil }) {
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
        return found
    }
}

/// The phone compares `vendorName` and `modelName` with the app's discovery descriptor and
/// shows `pairingName` (apple-peer-model.md 2.1 step 5: the whole string must compare equal).
/// When the profile names them, every publish's TXT record must carry exactly those values.
public struct TXTProfileValuesRule: AnalysisRule {
    public let id = "WA/CAP/TXT-03"
    public let title = "TXT vendor, model and pairing names equal the profile's"
    public let severity = AnalysisSeverity.error
    public let source = "apple-peer-model.md 2.1 step 5 (whole-string compare), 1.6 (PairingInfo)"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        let expected = context.profile.expectedTXT
        guard !expected.isEmpty, frame.isJudged, let management = frame.management,
            let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty
        else { return [] }
        let what = AnalysisContext.describe(management)
        var found: [AnalysisFinding] = []
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
        return found
    }
}
