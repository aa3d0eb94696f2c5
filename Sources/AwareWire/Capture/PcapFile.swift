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
        var parser = PcapParser()
        var reader = WireReader(bytes, structure: "pcap file header")
        let header = try parser.readHeader(from: &reader)
        byteOrder = header.byteOrder
        precision = header.precision
        snapLength = header.snapLength
        linkType = header.linkType
        records = []
        while !reader.isAtEnd {
            records.append(try parser.readRecord(from: &reader))
        }
        self.records = records
    }

    /// The file's octets: little-endian, microsecond timestamps (sub-microsecond digits are
    /// dropped), every record encapsulated for ``linkType``. The file header and the records
    /// are the same octets ``header(linkType:snapLength:)`` and ``record(_:linkType:)`` give a
    /// writer that appends records as they arrive.
    public var bytes: [UInt8] {
        var writer = WireWriter(capacity: Self.headerLength + records.count * 128)
        writer.write(Self.header(linkType: linkType, snapLength: snapLength))
        for record in records { writer.write(Self.record(record, linkType: linkType)) }
        return writer.bytes
    }

    /// The 24-octet file header (pcap-savefile(5)): magic a1b2c3d4 written little-endian,
    /// version 2.4, thiszone 0, sigfigs 0, snaplen and the link type.
    public static func header(linkType: CaptureLinkType, snapLength: UInt32 = 262_144) -> [UInt8] {
        var writer = WireWriter(capacity: headerLength)
        writer.writeUInt32LE(0xA1B2_C3D4)
        writer.writeUInt16LE(2)
        writer.writeUInt16LE(4)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(snapLength)
        writer.writeUInt32LE(linkType.rawValue)
        return writer.bytes
    }

    /// One record (pcap-savefile(5)): `ts_sec | ts_usec | incl_len | orig_len` little-endian,
    /// then the packet data encapsulated for `linkType`.
    public static func record(_ record: CaptureRecord, linkType: CaptureLinkType) -> [UInt8] {
        let data = record.packetData(for: linkType)
        var writer = WireWriter(capacity: recordHeaderLength + data.count)
        writer.writeUInt32LE(UInt32(truncatingIfNeeded: record.timestamp / 1_000_000_000))
        writer.writeUInt32LE(UInt32(truncatingIfNeeded: record.timestamp % 1_000_000_000 / 1_000))
        writer.writeUInt32LE(UInt32(truncatingIfNeeded: data.count))
        writer.writeUInt32LE(UInt32(truncatingIfNeeded: max(data.count, record.originalLength ?? 0)))
        writer.write(data)
        return writer.bytes
    }
}

/// The one parser of the pcap layout (pcap-savefile(5); platform-notes.md 4): the file
/// header, then one record at a time, each read from a reader that holds at least that piece.
/// ``PcapFile/init(bytes:)`` runs it over a whole buffer, ``CaptureStreamReader`` over a file
/// read record by record; both get the same records and the same errors at the same offsets.
struct PcapParser: Sendable {
    /// What the file header says.
    struct Header: Hashable, Sendable {
        var byteOrder: CaptureByteOrder
        var precision: PcapTimestampPrecision
        var snapLength: UInt32
        var linkType: CaptureLinkType
    }

    private(set) var header: Header?
    private(set) var recordCount = 0

    /// The octets, from the start of `available`, that the next piece takes: the file header,
    /// or a record header and its `incl_len` octets of data; 0 when `incl_len` is over
    /// ``CaptureReader/maximumBlockLength``, which the read then reports without waiting for
    /// those octets.
    func nextPieceLength(_ available: ArraySlice<UInt8>) -> Int {
        guard let header else { return PcapFile.headerLength }
        guard available.count >= PcapFile.recordHeaderLength else { return PcapFile.recordHeaderLength }
        let included = Int(header.byteOrder.uint32(available, at: 8))
        return included > CaptureReader.maximumBlockLength ? 0 : PcapFile.recordHeaderLength + included
    }

    /// The file header, then each record in turn.
    mutating func read(from reader: inout WireReader) throws(WireError) -> CaptureRecord? {
        guard header != nil else {
            _ = try readHeader(from: &reader)
            return nil
        }
        return try readRecord(from: &reader)
    }

    mutating func readHeader(from reader: inout WireReader) throws(WireError) -> Header {
        reader.structure = "pcap file header"
        try reader.require(PcapFile.headerLength, field: "file header")
        guard let (order, precision) = PcapFile.magic(reader.peek(4)) else {
            throw reader.error(
                .invalidValue("not a pcap magic number: \(HexString.encode(reader.peek(4)))"),
                field: "magic"
            )
        }
        let start = reader.offset
        _ = try reader.readBytes(4, "magic")
        let major = try reader.readUInt16(order, "version_major")
        _ = try reader.readUInt16(order, "version_minor")
        guard major == 2 else {
            throw reader.error(.invalidValue("version \(major) is not 2"), field: "version_major", at: start + 4)
        }
        _ = try reader.readUInt32(order, "thiszone")
        _ = try reader.readUInt32(order, "sigfigs")
        let snapLength = try reader.readUInt32(order, "snaplen")
        let linkType = CaptureLinkType(rawValue: try reader.readUInt32(order, "network"))
        let header = Header(byteOrder: order, precision: precision, snapLength: snapLength, linkType: linkType)
        self.header = header
        return header
    }

    /// One record; the file header must have been read.
    mutating func readRecord(from reader: inout WireReader) throws(WireError) -> CaptureRecord {
        guard let header else { preconditionFailure("the pcap file header is read first") }
        let order = header.byteOrder
        let number = recordCount + 1
        reader.structure = "pcap record \(number) header"
        let start = reader.offset
        let seconds = UInt64(try reader.readUInt32(order, "ts_sec"))
        let fraction = UInt64(
            try reader.readUInt32(order, header.precision == .microseconds ? "ts_usec" : "ts_nsec")
        )
        let included = Int(try reader.readUInt32(order, "incl_len"))
        guard included <= CaptureReader.maximumBlockLength else {
            throw reader.error(
                .tooLong(declared: included, limit: CaptureReader.maximumBlockLength),
                field: "incl_len",
                at: start + 8
            )
        }
        let original = Int(try reader.readUInt32(order, "orig_len"))
        var data = try reader.subReader(length: included, structure: "pcap record \(number)", field: "incl_len")
        let nanoseconds =
            seconds * 1_000_000_000 + (header.precision == .microseconds ? fraction * 1_000 : fraction)
        let record = try CaptureRecord.decode(
            packetData: &data,
            linkType: header.linkType,
            timestamp: nanoseconds,
            originalLength: original,
            interfaceID: 0
        )
        recordCount = number
        return record
    }
}

/// Whether a classic pcap file's second field is followed by micro- or nanoseconds, as its
/// magic number says (0xa1b2c3d4 / 0xa1b23c4d).
public enum PcapTimestampPrecision: Hashable, Sendable {
    case microseconds
    case nanoseconds
}
