import AwareCore

/// A TCP segment (RFC 9293 3.1): Source Port, Destination Port, Sequence Number,
/// Acknowledgment Number, Data Offset (4 bits, in 32-bit words), 4 reserved bits, the
/// control bits, Window, Checksum, Urgent Pointer, options, then the data.
///
/// Data Offset and the checksum are derived when written and checked when read. Options are
/// kept raw, as sent: a writer pads them with zero octets (End of Option List, RFC 9293 3.2)
/// to a whole number of words, so a segment that parses writes back byte-exact.
///
/// The checksum covers the IPv6 pseudo-header (RFC 9293 3.1, RFC 8200 8.1), so a segment is
/// read and written with the addresses of the packet that carries it.
public struct TCPSegment: Hashable, Sendable {
    /// The control bits (RFC 9293 3.1; CWR and ECE from RFC 3168 6.1).
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let fin = Flags(rawValue: 0x01)
        public static let syn = Flags(rawValue: 0x02)
        public static let rst = Flags(rawValue: 0x04)
        public static let psh = Flags(rawValue: 0x08)
        public static let ack = Flags(rawValue: 0x10)
        public static let urg = Flags(rawValue: 0x20)
        public static let ece = Flags(rawValue: 0x40)
        public static let cwr = Flags(rawValue: 0x80)

        /// The names of the set bits, CWR (b7) first: ["ACK", "SYN"] for a SYN-ACK.
        public var names: [String] {
            let all: [(Flags, String)] = [
                (.cwr, "CWR"), (.ece, "ECE"), (.urg, "URG"), (.ack, "ACK"),
                (.psh, "PSH"), (.rst, "RST"), (.syn, "SYN"), (.fin, "FIN"),
            ]
            return all.filter { contains($0.0) }.map(\.1)
        }
    }

    public static let structureName = "TCP segment"
    /// The header without options: Data Offset 5.
    public static let minimumHeaderLength = 20
    /// Data Offset is 4 bits of 32-bit words: at most 60 octets of header, 40 of options.
    public static let maximumOptionsLength = 40
    /// Option kinds (RFC 9293 3.2).
    public static let endOfOptionListKind: UInt8 = 0
    public static let noOperationKind: UInt8 = 1
    public static let maximumSegmentSizeKind: UInt8 = 2

    public var sourcePort: UInt16
    public var destinationPort: UInt16
    public var sequenceNumber: UInt32
    public var acknowledgmentNumber: UInt32
    public var flags: Flags
    public var window: UInt16
    public var urgentPointer: UInt16
    /// The options as sent, at most 40 octets; padded with zeros to a multiple of 4 when written.
    public var options: [UInt8]
    public var payload: [UInt8]
    /// The 4 reserved bits after Data Offset as received: zero when sent, ignored by a
    /// receiver (RFC 9293 3.1), kept so that a parsed segment writes back byte-exact.
    public var reservedBits: UInt8 = 0

    public init(
        sourcePort: UInt16,
        destinationPort: UInt16,
        sequenceNumber: UInt32,
        acknowledgmentNumber: UInt32 = 0,
        flags: Flags,
        window: UInt16 = 65_535,
        urgentPointer: UInt16 = 0,
        options: [UInt8] = [],
        payload: [UInt8] = []
    ) {
        self.sourcePort = sourcePort
        self.destinationPort = destinationPort
        self.sequenceNumber = sequenceNumber
        self.acknowledgmentNumber = acknowledgmentNumber
        self.flags = flags
        self.window = window
        self.urgentPointer = urgentPointer
        self.options = options
        self.payload = payload
    }

    /// Data Offset: the header's length in 32-bit words.
    public var dataOffset: Int { (Self.minimumHeaderLength + options.count + 3) / 4 }

    /// Parses a whole segment and checks its checksum against the pseudo-header of
    /// `source` -> `destination`.
    public init(bytes: [UInt8], source: IPv6Address, destination: IPv6Address) throws(WireError) {
        var reader = WireReader(bytes, structure: Self.structureName)
        sourcePort = try reader.readUInt16BE("Source Port")
        destinationPort = try reader.readUInt16BE("Destination Port")
        sequenceNumber = try reader.readUInt32BE("Sequence Number")
        acknowledgmentNumber = try reader.readUInt32BE("Acknowledgment Number")
        let dataOffsetOffset = reader.offset
        let offsetOctet = try reader.readUInt8("Data Offset")
        flags = Flags(rawValue: try reader.readUInt8("Control Bits"))
        window = try reader.readUInt16BE("Window")
        let checksumOffset = reader.offset
        _ = try reader.readUInt16BE("Checksum")
        urgentPointer = try reader.readUInt16BE("Urgent Pointer")
        reservedBits = offsetOctet & 0x0F
        let headerLength = 4 * Int(offsetOctet >> 4)
        guard headerLength >= Self.minimumHeaderLength else {
            throw reader.error(
                .invalidValue("Data Offset \(offsetOctet >> 4) is less than 5 (RFC 9293 3.1)"),
                field: "Data Offset",
                at: dataOffsetOffset
            )
        }
        guard headerLength <= bytes.count else {
            throw reader.error(
                .lengthMismatch(declared: headerLength, actual: bytes.count),
                field: "Data Offset",
                at: dataOffsetOffset
            )
        }
        options = try reader.readBytes(headerLength - Self.minimumHeaderLength, "Options")
        payload = reader.readRemaining()
        try IPv6Packet.checkUpperLayerChecksum(
            of: bytes,
            at: checksumOffset,
            source: source,
            destination: destination,
            nextHeader: IPNextHeader.tcp,
            reader: reader
        )
    }

    /// The segment with its checksum computed for `source` -> `destination`.
    public func bytes(source: IPv6Address, destination: IPv6Address) -> [UInt8] {
        precondition(options.count <= Self.maximumOptionsLength, "TCP options of \(options.count) octets overflow")
        var writer = WireWriter(capacity: Self.minimumHeaderLength + options.count + 3 + payload.count)
        writer.writeUInt16BE(sourcePort)
        writer.writeUInt16BE(destinationPort)
        writer.writeUInt32BE(sequenceNumber)
        writer.writeUInt32BE(acknowledgmentNumber)
        writer.write(UInt8(dataOffset) << 4 | reservedBits & 0x0F)
        writer.write(flags.rawValue)
        writer.writeUInt16BE(window)
        writer.writeUInt16BE(0)
        writer.writeUInt16BE(urgentPointer)
        writer.write(options)
        writer.write([UInt8](repeating: Self.endOfOptionListKind, count: 4 * dataOffset - 20 - options.count))
        writer.write(payload)
        var bytes = writer.bytes
        let checksum = IPv6Packet.upperLayerChecksum(
            source: source,
            destination: destination,
            nextHeader: IPNextHeader.tcp,
            body: bytes
        )
        bytes[16] = UInt8(checksum >> 8)
        bytes[17] = UInt8(checksum & 0xFF)
        return bytes
    }

    /// The Maximum Segment Size option's value (kind 2, length 4; RFC 9293 3.2, 3.7.1), when
    /// the options carry one; nil also when the options are malformed before it.
    public var maximumSegmentSize: UInt16? {
        var index = 0
        while index < options.count {
            let kind = options[index]
            if kind == Self.endOfOptionListKind { return nil }
            if kind == Self.noOperationKind {
                index += 1
                continue
            }
            guard index + 1 < options.count else { return nil }
            let length = Int(options[index + 1])
            guard length >= 2, index + length <= options.count else { return nil }
            if kind == Self.maximumSegmentSizeKind, length == 4 {
                return UInt16(options[index + 2]) << 8 | UInt16(options[index + 3])
            }
            index += length
        }
        return nil
    }

    /// The Maximum Segment Size option: kind 2, length 4, the size big-endian.
    public static func maximumSegmentSizeOption(_ mss: UInt16) -> [UInt8] {
        [maximumSegmentSizeKind, 4, UInt8(mss >> 8), UInt8(mss & 0xFF)]
    }

    /// The segment's fields for people and JSON, the checksum computed for `source` ->
    /// `destination` (it is not a stored field: it follows from the rest).
    public func decodedFields(source: IPv6Address, destination: IPv6Address) -> [DecodedField] {
        let written = bytes(source: source, destination: destination)
        let checksum = UInt64(written[16]) << 8 | UInt64(written[17])
        var fields = [
            DecodedField("sourcePort", "Source Port", .unsigned(UInt64(sourcePort))),
            DecodedField("destinationPort", "Destination Port", .unsigned(UInt64(destinationPort))),
            DecodedField("sequenceNumber", "Sequence Number", .unsigned(UInt64(sequenceNumber))),
            DecodedField("acknowledgmentNumber", "Acknowledgment Number", .unsigned(UInt64(acknowledgmentNumber))),
            DecodedField("dataOffset", "Data Offset", .unsigned(UInt64(dataOffset))),
            DecodedField("reserved", "Reserved", .unsigned(UInt64(reservedBits))),
            DecodedField("flags", "Control Bits", .named(UInt64(flags.rawValue), flags.names.joined(separator: ", "))),
            DecodedField("window", "Window", .unsigned(UInt64(window))),
            DecodedField("checksum", "Checksum", .bits(checksum, digits: 4)),
            DecodedField("urgentPointer", "Urgent Pointer", .unsigned(UInt64(urgentPointer))),
            DecodedField("options", "Options", .bytes(options)),
        ]
        if let maximumSegmentSize {
            fields.append(
                DecodedField("maximumSegmentSize", "Maximum Segment Size", .unsigned(UInt64(maximumSegmentSize)))
            )
        }
        fields.append(DecodedField("payload", "Payload", .bytes(payload)))
        return fields
    }
}
