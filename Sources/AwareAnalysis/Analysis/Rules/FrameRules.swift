import AwareWire

/// A frame the capture cut short (pcap `incl_len` < `orig_len`, a snap length smaller than
/// the frame) cannot be judged: its missing octets would look like a malformed attribute. It
/// is skipped and noted, never parsed as if whole.
public struct FrameTruncatedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-01"
    public let title = "Frames cut short by the snap length are skipped"
    public let severity = AnalysisSeverity.info
    public let source = "pcap record header incl_len/orig_len (tcpdump.org LINKTYPE docs; platform-notes.md 4)"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard case .truncated(let captured, let original) = frame.condition else { return [] }
        return [
            finding(
                frame.number,
                "the capture kept \(captured) of the frame's \(original) octets (snap length); frame not judged"
            )
        ]
    }
}

/// A frame received with a bad FCS is noise from the sniffer's point of view: the transmitter
/// sent something else. Radiotap says so (Flags bit 0x40), or the FCS the capture kept does not
/// match the CRC-32 of the frame. Skipped and noted.
public struct FrameCorruptedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-02"
    public let title = "Frames received with a bad FCS are skipped"
    public let severity = AnalysisSeverity.info
    public let source = "IEEE 802.11-2020 9.2.4.8 (FCS field); radiotap.org Flags (0x10 FCS at end, 0x40 bad FCS)"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.condition == .badFCS else { return [] }
        return [finding(frame.number, "received with a bad FCS (\(frame.octets.count) octets); frame not judged")]
    }
}

/// Every whole frame must parse: the 802.11 header, and for NAN frames every attribute, whose
/// length fields must exactly cover the body (hostap `nan_parse_attrs` drops the whole frame
/// otherwise). The message names the structure, field and octet offset (from Frame Control).
public struct FrameMalformedRule: AnalysisRule {
    public let id = "WA/CAP/FRAME-03"
    public let title = "Frames and NAN attributes are well formed"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 1.1, 2.1 (attribute header; hostap nan_parse_attrs), 2.2-2.18"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.condition == .whole, case .failure(let error)? = frame.parsed else { return [] }
        return [finding(frame.number, "malformed \(frame.octets.count)-octet frame: \(error)")]
    }
}

/// The Service Descriptor attribute and its extension must agree: an SDEA extends the SDA with
/// the same Instance ID (hostap matches them by instance ID), an Instance ID is 1..255, and the
/// Service Control type 3 is reserved.
public struct ServiceDescriptorConsistencyRule: AnalysisRule {
    public let id = "WA/CAP/ATTR-01"
    public let title = "SDEA matches an SDA; Instance ID 1..255; no reserved type"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 2.4 (SDA Instance ID, Service Control), 2.5 (SDEA Instance ID)"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery else { return [] }
        let what = AnalysisContext.describe(management)
        var found: [AnalysisFinding] = []
        var instances: Set<UInt8> = []
        for case .serviceDescriptor(let sda) in sdf.attributes {
            instances.insert(sda.instanceID)
            if sda.instanceID == 0 {
                found.append(finding(frame.number, "\(what): SDA for service \(sda.serviceID) has Instance ID 0"))
            }
            if sda.type == .reserved {
                found.append(finding(frame.number, "\(what): SDA for service \(sda.serviceID) has the reserved type 3"))
            }
        }
        for case .serviceDescriptorExtension(let sdea) in sdf.attributes where !instances.contains(sdea.instanceID) {
            found.append(
                finding(
                    frame.number,
                    "\(what): SDEA Instance ID \(sdea.instanceID) matches no SDA in the frame "
                        + "(SDA Instance IDs: \(instances.sorted().map(String.init).joined(separator: ", ")))"
                )
            )
        }
        return found
    }
}
