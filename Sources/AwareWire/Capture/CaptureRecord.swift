/// One captured frame, whatever file it came from: when it was seen, on which link type,
/// what the radio said (from radiotap, when present) and the 802.11 frame from Frame
/// Control on, without FCS.
public struct CaptureRecord: Hashable, Sendable, WireDescribable {
    /// Nanoseconds since the Unix epoch.
    public var timestamp: UInt64
    public var linkType: CaptureLinkType
    /// The radiotap header of a link type 127 record.
    public var radiotap: Radiotap?
    /// The 802.11 frame (for link types 105 and 127), else the packet data as captured.
    public var frame: [UInt8]
    /// The FCS that radiotap said ends the frame (Flags bit 0x10), stripped from ``frame``.
    public var frameCheckSequence: [UInt8]?
    /// The packet's length on the wire when the capture cut it short; nil when whole.
    public var originalLength: Int?
    /// The pcapng interface the record belongs to (0 for classic pcap).
    public var interfaceID: Int

    public init(
        timestamp: UInt64,
        linkType: CaptureLinkType? = nil,
        radiotap: Radiotap? = nil,
        frame: [UInt8],
        frameCheckSequence: [UInt8]? = nil,
        originalLength: Int? = nil,
        interfaceID: Int = 0
    ) {
        self.timestamp = timestamp
        self.linkType = linkType ?? (radiotap == nil ? .ieee80211 : .ieee80211Radiotap)
        self.radiotap = radiotap
        self.frame = frame
        self.frameCheckSequence = frameCheckSequence
        self.originalLength = originalLength
        self.interfaceID = interfaceID
    }

    /// Channel frequency in MHz, if the radio reported it.
    public var frequencyMHz: UInt16? { radiotap?.channel?.frequency }
    /// Signal strength in dBm, if the radio reported it.
    public var signalDBm: Int8? { radiotap?.antennaSignal }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("timestamp", "Timestamp (ns since 1970)", .unsigned(timestamp)),
            DecodedField("linkType", "Link Type", .named(UInt64(linkType.rawValue), linkType.description)),
            DecodedField("interfaceID", "Interface ID", .unsigned(UInt64(interfaceID))),
        ]
        if let radiotap { fields.append(DecodedField("radiotap", "Radiotap Header", .fields(radiotap.decodedFields))) }
        fields.append(DecodedField("frameLength", "Frame Length", .unsigned(UInt64(frame.count))))
        if let originalLength {
            fields.append(DecodedField("originalLength", "Original Length", .unsigned(UInt64(originalLength))))
        }
        if let frameCheckSequence { fields.append(DecodedField("fcs", "FCS", .bytes(frameCheckSequence))) }
        return fields
    }

    /// The packet data for a file of `linkType`: for 127 the radiotap header (an empty
    /// one if the record has none), the frame and the FCS if it had one.
    public func packetData(for linkType: CaptureLinkType) -> [UInt8] {
        guard linkType == .ieee80211Radiotap else { return frame }
        var writer = WireWriter(capacity: frame.count + 32)
        (radiotap ?? Radiotap()).write(to: &writer)
        writer.write(frame)
        if let frameCheckSequence, radiotap?.flags?.fcsAtEnd == true { writer.write(frameCheckSequence) }
        return writer.bytes
    }

    /// Decodes the packet data of one record; `reader` covers exactly that data, so errors
    /// carry file offsets.
    static func decode(
        packetData reader: inout WireReader,
        linkType: CaptureLinkType,
        timestamp: UInt64,
        originalLength: Int,
        interfaceID: Int
    ) throws(WireError) -> CaptureRecord {
        let captured = reader.remaining
        var radiotap: Radiotap?
        var fcs: [UInt8]?
        if linkType == .ieee80211Radiotap {
            let structure = reader.structure
            let header = try Radiotap(from: &reader)
            reader.structure = structure
            radiotap = header
            if header.flags?.fcsAtEnd == true {
                guard reader.remaining >= 4 else {
                    throw reader.error(.truncated(need: 4, have: reader.remaining), field: "FCS")
                }
                fcs = Array(reader.bytes.suffix(4))
            }
        }
        var frame = try reader.subReader(length: reader.remaining - (fcs == nil ? 0 : 4), field: "802.11 frame")
        return CaptureRecord(
            timestamp: timestamp,
            linkType: linkType,
            radiotap: radiotap,
            frame: frame.readRemaining(),
            frameCheckSequence: fcs,
            originalLength: originalLength == captured ? nil : originalLength,
            interfaceID: interfaceID
        )
    }
}

/// A pcap / pcapng link type (tcpdump.org LINKTYPE_ values; platform-notes.md 4). An open
/// set: records of other link types are read and kept as octets.
public struct CaptureLinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// LINKTYPE_IEEE802_11: 802.11 MAC header and body.
    public static let ieee80211 = Self(rawValue: 105)
    /// LINKTYPE_IEEE802_11_RADIOTAP: a radiotap header, then the 802.11 frame.
    public static let ieee80211Radiotap = Self(rawValue: 127)

    public var description: String {
        switch rawValue {
        case 105: "IEEE 802.11 Wireless LAN (105)"
        case 127: "IEEE 802.11 plus radiotap radio header (127)"
        default: "link type \(rawValue)"
        }
    }
}
