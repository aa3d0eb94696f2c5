import AwareCore

/// A classic libpcap file: a 24-octet file header (magic, version 2.4, thiszone, sigfigs,
/// snaplen, link type) and records `ts_sec | ts_usec or ts_nsec | incl_len | orig_len | data`,
/// all in the writer's byte order (platform-notes.md 4).
///
/// Reads both byte orders and both timestamp precisions; writes little-endian with
/// microseconds, the form tshark and every tool read. No file I/O: bytes in, bytes out.
public struct PcapFile: Hashable, Sendable {
    public var linkType: CaptureLinkType
    public var snapLength: UInt32
    public var records: [CaptureRecord]
    /// How the file was written (for files read; writing always uses little-endian µs).
    public var byteOrder: CaptureByteOrder
    public var precision: PcapTimestampPrecision

    public static let headerLength = 24
    public static let recordHeaderLength = 16

    public init(
        linkType: CaptureLinkType,
        records: [CaptureRecord],
        snapLength: UInt32 = 262_144
    ) {
        self.linkType = linkType
        self.records = records
        self.snapLength = snapLength
        byteOrder = .littleEndian
        precision = .microseconds
    }

    /// The byte order and precision a magic number stands for, or nil.
    static func magic(_ octets: ArraySlice<UInt8>) -> (CaptureByteOrder, PcapTimestampPrecision)? {
        switch Array(octets.prefix(4)) {
        case [0xD4, 0xC3, 0xB2, 0xA1]: (.littleEndian, .microseconds)
        case [0xA1, 0xB2, 0xC3, 0xD4]: (.bigEndian, .microseconds)
        case [0x4D, 0x3C, 0xB2, 0xA1]: (.littleEndian, .nanoseconds)
        case [0xA1, 0xB2, 0x3C, 0x4D]: (.bigEndian, .nanoseconds)
        default: nil
        }
    }

    public init(bytes: [UInt8]) throws(WireError) {
        var records: [CaptureRecord] = []
        try self.init(bytes: bytes, recordsRead: &records)
    }

    /// Reads like ``init(bytes:)`` and leaves in `recordsRead` every record read before an error,
    /// so that a reader can still use the frames of a capture cut short.
    init(bytes: [UInt8], recordsRead records: inout [CaptureRecord]) throws(WireError) {
        var reader = WireReader(bytes, structure: "pcap file header")
        try reader.require(Self.headerLength, field: "file header")
        guard let (order, precision) = Self.magic(reader.peek(4)) else {
            throw reader.error(
                .invalidValue("not a pcap magic number: \(HexString.encode(reader.peek(4)))"),
                field: "magic"
            )
        }
        _ = try reader.readBytes(4, "magic")
        byteOrder = order
        self.precision = precision
        let major = try reader.readUInt16(order, "version_major")
        _ = try reader.readUInt16(order, "version_minor")
        guard major == 2 else {
            throw reader.error(.invalidValue("version \(major) is not 2"), field: "version_major", at: 4)
        }
        _ = try reader.readUInt32(order, "thiszone")
        _ = try reader.readUInt32(order, "sigfigs")
        snapLength = try reader.readUInt32(order, "snaplen")
        linkType = CaptureLinkType(rawValue: try reader.readUInt32(order, "network"))

        records = []
        while !reader.isAtEnd {
            let number = records.count + 1
            reader.structure = "pcap record \(number) header"
            let seconds = UInt64(try reader.readUInt32(order, "ts_sec"))
            let fraction = UInt64(try reader.readUInt32(order, precision == .microseconds ? "ts_usec" : "ts_nsec"))
            let included = Int(try reader.readUInt32(order, "incl_len"))
            let original = Int(try reader.readUInt32(order, "orig_len"))
            var data = try reader.subReader(length: included, structure: "pcap record \(number)", field: "incl_len")
            let nanoseconds = seconds * 1_000_000_000 + (precision == .microseconds ? fraction * 1_000 : fraction)
            records.append(
                try CaptureRecord.decode(
                    packetData: &data,
                    linkType: linkType,
                    timestamp: nanoseconds,
                    originalLength: original,
                    interfaceID: 0
                )
            )
        }
        self.records = records
    }

    /// The file's octets: little-endian, microsecond timestamps (sub-microsecond digits are
    /// dropped), every record encapsulated for ``linkType``.
    public var bytes: [UInt8] {
        var writer = WireWriter(capacity: Self.headerLength + records.count * 128)
        writer.writeUInt32LE(0xA1B2_C3D4)
        writer.writeUInt16LE(2)
        writer.writeUInt16LE(4)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(snapLength)
        writer.writeUInt32LE(linkType.rawValue)
        for record in records {
            let data = record.packetData(for: linkType)
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: record.timestamp / 1_000_000_000))
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: record.timestamp % 1_000_000_000 / 1_000))
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: data.count))
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: max(data.count, record.originalLength ?? 0)))
            writer.write(data)
        }
        return writer.bytes
    }
}

/// Whether a classic pcap file's second field is followed by micro- or nanoseconds, as its
/// magic number says (0xa1b2c3d4 / 0xa1b23c4d).
public enum PcapTimestampPrecision: Hashable, Sendable {
    case microseconds
    case nanoseconds
}
