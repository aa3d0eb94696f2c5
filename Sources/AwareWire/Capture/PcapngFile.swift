import AwareCore

/// A pcapng file (IETF draft-ietf-opsawg-pcapng): blocks `Type (4) | Total Length (4) |
/// Body | Total Length (4)`, lengths a multiple of 4, in the byte order the Section Header
/// Block's magic gives.
///
/// Reads Section Header (either byte order, several sections), Interface Description (link
/// type, `if_tsresol`), Enhanced Packet and Simple Packet Blocks, and skips every other
/// block. Writes one little-endian section with one interface per link type, nanosecond
/// timestamps and Enhanced Packet Blocks. No file I/O: bytes in, bytes out.
public struct PcapngFile: Hashable, Sendable {
    /// Every interface of every section, in file order; ``CaptureRecord/interfaceID`` indexes it.
    public var interfaces: [PcapngInterface]
    public var records: [CaptureRecord]

    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let interfaceDescriptionType: UInt32 = 1
    static let simplePacketType: UInt32 = 3
    static let enhancedPacketType: UInt32 = 6
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    static let tsresolOption: UInt16 = 9

    /// Interfaces for writing are derived from the records' link types.
    public init(records: [CaptureRecord]) {
        self.records = records
        var interfaces: [PcapngInterface] = []
        for record in records where !interfaces.contains(where: { $0.linkType == record.linkType }) {
            interfaces.append(PcapngInterface(linkType: record.linkType, timestampResolution: .nanoseconds))
        }
        self.interfaces = interfaces
    }

    /// Whether `octets` start like a pcapng file (a Section Header Block).
    static func isPcapng(_ octets: ArraySlice<UInt8>) -> Bool {
        octets.prefix(4).elementsEqual([0x0A, 0x0D, 0x0D, 0x0A])
    }

    public init(bytes: [UInt8]) throws(WireError) {
        var records: [CaptureRecord] = []
        try self.init(bytes: bytes, recordsRead: &records)
    }

    /// Reads like ``init(bytes:)`` and leaves in `recordsRead` every record read before an error,
    /// so that a reader can still use the frames of a capture cut short.
    init(bytes: [UInt8], recordsRead records: inout [CaptureRecord]) throws(WireError) {
        var parser = PcapngParser()
        var reader = WireReader(bytes, structure: "pcapng file")
        records = []
        while !reader.isAtEnd {
            if let record = try parser.readBlock(from: &reader) { records.append(record) }
        }
        try parser.finish(reader)
        self.interfaces = parser.interfaces
        self.records = records
    }

    static func sectionByteOrder(reader: WireReader, block: Int) throws(WireError) -> CaptureByteOrder {
        var probe = reader
        probe.structure = "pcapng Section Header Block (block \(block))"
        _ = try probe.readBytes(8, "Block Type and Length")
        let magic = try probe.readBytes(4, "Byte-Order Magic")
        switch magic {
        case [0x4D, 0x3C, 0x2B, 0x1A]: return .littleEndian
        case [0x1A, 0x2B, 0x3C, 0x4D]: return .bigEndian
        default:
            throw probe.error(
                .invalidValue("byte-order magic \(HexString.encode(magic)) is not 1a2b3c4d"),
                field: "Byte-Order Magic",
                at: probe.offset - 4
            )
        }
    }

    static func interface(
        _ local: Int,
        of section: [Int],
        body: WireReader,
        at offset: Int
    ) throws(WireError)
        -> Int
    {
        guard local < section.count else {
            throw body.error(
                .invalidValue("interface \(local) has no Interface Description Block in this section"),
                field: "Interface ID",
                at: offset
            )
        }
        return section[local]
    }

    /// Calls `visit` with each option up to opt_endofopt or the end of the block body.
    static func readOptions(
        from body: inout WireReader,
        order: CaptureByteOrder,
        visit: (UInt16, [UInt8]) throws(WireError) -> Void
    ) throws(WireError) {
        while body.remaining >= 4 {
            let code = try body.readUInt16(order, "Option Code")
            let length = Int(try body.readUInt16(order, "Option Length"))
            if code == 0 { break }
            let value = try body.readBytes(length, "Option Value")
            _ = try body.readBytes(min((4 - length % 4) % 4, body.remaining), "Option padding")
            try visit(code, value)
        }
        _ = body.readRemaining()
    }

    static func blockName(_ type: UInt32) -> String {
        switch type {
        case sectionHeaderType: "Section Header Block"
        case interfaceDescriptionType: "Interface Description Block"
        case simplePacketType: "Simple Packet Block"
        case enhancedPacketType: "Enhanced Packet Block"
        default: "block type 0x\(String(type, radix: 16))"
        }
    }

    /// The file's octets: one little-endian section, an Interface Description Block per
    /// entry of ``interfaces`` (with `if_tsresol`), and an Enhanced Packet Block per record,
    /// on the first interface of the record's link type. The same octets as
    /// ``header(interfaces:)`` and ``block(for:interfaceID:interface:)`` give a writer that
    /// appends records as they arrive.
    public var bytes: [UInt8] {
        var writer = WireWriter(capacity: 64 + records.count * 160)
        writer.write(Self.header(interfaces: interfaces))
        for record in records {
            let index = interfaces.firstIndex { $0.linkType == record.linkType } ?? 0
            let interface =
                interfaces.indices.contains(index) ? interfaces[index] : PcapngInterface(linkType: record.linkType)
            writer.write(Self.block(for: record, interfaceID: index, interface: interface))
        }
        return writer.bytes
    }

    /// The start of a file: a little-endian Section Header Block (version 1.0, Section Length
    /// -1, "not specified", so that records can follow as they arrive) and an Interface
    /// Description Block per interface, each with `if_tsresol`
    /// (draft-ietf-opsawg-pcapng, sections 4.1 and 4.2).
    public static func header(interfaces: [PcapngInterface]) -> [UInt8] {
        var writer = WireWriter(capacity: 28 + interfaces.count * 32)
        writeBlock(sectionHeaderType, to: &writer) { body in
            body.writeUInt32LE(byteOrderMagic)
            body.writeUInt16LE(1)
            body.writeUInt16LE(0)
            body.writeUInt64LE(UInt64.max)
        }
        for interface in interfaces {
            writeBlock(interfaceDescriptionType, to: &writer) { body in
                body.writeUInt16LE(UInt16(truncatingIfNeeded: interface.linkType.rawValue))
                body.writeUInt16LE(0)
                body.writeUInt32LE(interface.snapLength)
                body.writeUInt16LE(tsresolOption)
                body.writeUInt16LE(1)
                body.write([interface.timestampResolution.rawValue, 0, 0, 0])
                body.writeUInt32LE(0)
            }
        }
        return writer.bytes
    }

    /// One Enhanced Packet Block (draft-ietf-opsawg-pcapng, section 4.3): `record` on interface
    /// `interfaceID`, whose link type and timestamp resolution `interface` gives.
    public static func block(for record: CaptureRecord, interfaceID: Int, interface: PcapngInterface) -> [UInt8] {
        let data = record.packetData(for: interface.linkType)
        let units = units(record.timestamp, resolution: interface.timestampResolution)
        var writer = WireWriter(capacity: 32 + data.count + 3)
        writeBlock(enhancedPacketType, to: &writer) { body in
            body.writeUInt32LE(UInt32(truncatingIfNeeded: interfaceID))
            body.writeUInt32LE(UInt32(truncatingIfNeeded: units >> 32))
            body.writeUInt32LE(UInt32(truncatingIfNeeded: units))
            body.writeUInt32LE(UInt32(truncatingIfNeeded: data.count))
            body.writeUInt32LE(UInt32(truncatingIfNeeded: max(data.count, record.originalLength ?? 0)))
            body.write(data)
            body.write([UInt8](repeating: 0, count: (4 - data.count % 4) % 4))
        }
        return writer.bytes
    }

    /// Nanoseconds in decimal `if_tsresol` units (the writer's interfaces use 10^-6 or 10^-9).
    private static func units(_ nanoseconds: UInt64, resolution: PcapngTimestampResolution) -> UInt64 {
        let exponent = Int(resolution.rawValue & 0x7F)
        guard resolution.rawValue & 0x80 == 0, exponent <= 9 else { return nanoseconds }
        var divisor: UInt64 = 1
        for _ in 0..<(9 - exponent) { divisor *= 10 }
        return nanoseconds / divisor
    }

    private static func writeBlock(_ type: UInt32, to writer: inout WireWriter, body: (inout WireWriter) -> Void) {
        var content = WireWriter()
        body(&content)
        let total = UInt32(truncatingIfNeeded: content.count + 12)
        writer.writeUInt32LE(type)
        writer.writeUInt32LE(total)
        writer.write(content.bytes)
        writer.writeUInt32LE(total)
    }
}

/// The one parser of the pcapng layout (draft-ietf-opsawg-pcapng, sections 3 and 4): one block
/// at a time, each read from a reader that holds at least that block, with what the blocks
/// before it said (the section's byte order, its interfaces). ``PcapngFile/init(bytes:)`` runs
/// it over a whole buffer, ``CaptureStreamReader`` over a file read block by block; both get
/// the same records and the same errors at the same offsets.
struct PcapngParser: Sendable {
    /// Every interface of every section so far; ``CaptureRecord/interfaceID`` indexes it.
    private(set) var interfaces: [PcapngInterface] = []
    /// The indices in ``interfaces`` of the current section's interfaces, by local ID.
    private var sectionInterfaces: [Int] = []
    private var order = CaptureByteOrder.littleEndian
    private var section = -1
    private var blockNumber = 0

    /// How many Interface Description Blocks a file may hold: each costs memory for the rest
    /// of the file, and a capture of 802.11 frames names a handful.
    static let maximumInterfaces = 1 << 16

    /// The octets, from the start of `available`, that the next block takes: its Block Total
    /// Length once the first 12 octets are there (a Section Header Block's byte order is in
    /// octets 8-11); 0 when that length is unusable (under 12, not a multiple of 4, over
    /// ``CaptureReader/maximumBlockLength``) or the byte order unknown, which the read then
    /// reports without waiting for more octets.
    func nextPieceLength(_ available: ArraySlice<UInt8>) -> Int {
        guard available.count >= 12 else { return 12 }
        var blockOrder = order
        if PcapngFile.isPcapng(available) {
            switch Array(available.dropFirst(8).prefix(4)) {
            case [0x4D, 0x3C, 0x2B, 0x1A]: blockOrder = .littleEndian
            case [0x1A, 0x2B, 0x3C, 0x4D]: blockOrder = .bigEndian
            default: return 0
            }
        } else if section < 0 {
            return 0
        }
        let total = Int(blockOrder.uint32(available, at: 4))
        guard total >= 12, total % 4 == 0, total <= CaptureReader.maximumBlockLength else { return 0 }
        return total
    }

    /// Reads one block; returns the record of a packet block, nil for any other block.
    mutating func readBlock(from reader: inout WireReader) throws(WireError) -> CaptureRecord? {
        blockNumber += 1
        let start = reader.offset
        if PcapngFile.isPcapng(reader.peek(4)) {
            order = try PcapngFile.sectionByteOrder(reader: reader, block: blockNumber)
            section += 1
            sectionInterfaces = []
        } else if section < 0 {
            reader.structure = "pcapng file"
            throw reader.error(.invalidValue("a pcapng file starts with a Section Header Block"), field: "Block Type")
        }
        reader.structure = "pcapng block \(blockNumber)"
        let type = try reader.readUInt32(order, "Block Type")
        let name = "pcapng \(PcapngFile.blockName(type)) (block \(blockNumber))"
        reader.structure = name
        let total = Int(try reader.readUInt32(order, "Block Total Length"))
        guard total >= 12, total % 4 == 0 else {
            throw reader.error(
                .invalidValue("Block Total Length \(total) is not a multiple of 4 of at least 12"),
                field: "Block Total Length",
                at: start + 4
            )
        }
        guard total <= CaptureReader.maximumBlockLength else {
            throw reader.error(
                .tooLong(declared: total, limit: CaptureReader.maximumBlockLength),
                field: "Block Total Length",
                at: start + 4
            )
        }
        var body = try reader.subReader(length: total - 12, structure: name, field: "Block Total Length")
        let trailer = Int(try reader.readUInt32(order, "trailing Block Total Length"))
        guard trailer == total else {
            throw reader.error(
                .lengthMismatch(declared: total, actual: trailer),
                field: "trailing Block Total Length",
                at: reader.offset - 4
            )
        }
        switch type {
        case PcapngFile.sectionHeaderType:
            _ = try body.readUInt32(order, "Byte-Order Magic")
            let major = try body.readUInt16(order, "Major Version")
            guard major == 1 else {
                throw body.error(
                    .invalidValue("major version \(major) is not 1"),
                    field: "Major Version",
                    at: start + 12
                )
            }
            _ = try body.readUInt16(order, "Minor Version")
            _ = try body.readBytes(8, "Section Length")
            return nil
        case PcapngFile.interfaceDescriptionType:
            guard interfaces.count < Self.maximumInterfaces else {
                throw body.error(
                    .invalidValue("more than \(Self.maximumInterfaces) Interface Description Blocks"),
                    field: "Block Type",
                    at: start
                )
            }
            let linkType = CaptureLinkType(rawValue: UInt32(try body.readUInt16(order, "LinkType")))
            _ = try body.readUInt16(order, "Reserved")
            let snapLength = try body.readUInt32(order, "SnapLen")
            var resolution = PcapngTimestampResolution.microseconds
            try PcapngFile.readOptions(from: &body, order: order) { code, value throws(WireError) in
                if code == PcapngFile.tsresolOption, let first = value.first { resolution = .init(rawValue: first) }
            }
            sectionInterfaces.append(interfaces.count)
            interfaces.append(
                PcapngInterface(
                    linkType: linkType,
                    snapLength: snapLength,
                    timestampResolution: resolution,
                    section: section
                )
            )
            return nil
        case PcapngFile.enhancedPacketType:
            let local = Int(try body.readUInt32(order, "Interface ID"))
            let interfaceID = try PcapngFile.interface(local, of: sectionInterfaces, body: body, at: start + 8)
            let high = UInt64(try body.readUInt32(order, "Timestamp (High)"))
            let low = UInt64(try body.readUInt32(order, "Timestamp (Low)"))
            let captured = Int(try body.readUInt32(order, "Captured Packet Length"))
            let original = Int(try body.readUInt32(order, "Original Packet Length"))
            let interface = interfaces[interfaceID]
            guard let nanoseconds = interface.timestampResolution.nanoseconds(high << 32 | low) else {
                throw body.error(
                    .invalidValue("timestamp overflows 64-bit nanoseconds"),
                    field: "Timestamp",
                    at: start + 12
                )
            }
            var data = try body.subReader(length: captured, field: "Captured Packet Length")
            _ = try body.readBytes((4 - captured % 4) % 4, "Packet Data padding")
            return try CaptureRecord.decode(
                packetData: &data,
                linkType: interface.linkType,
                timestamp: nanoseconds,
                originalLength: original,
                interfaceID: interfaceID
            )
        case PcapngFile.simplePacketType:
            let interfaceID = try PcapngFile.interface(0, of: sectionInterfaces, body: body, at: start)
            let original = Int(try body.readUInt32(order, "Original Packet Length"))
            let snap = Int(interfaces[interfaceID].snapLength)
            let captured = min(original, snap == 0 ? original : snap, body.remaining)
            var data = try body.subReader(length: captured, field: "Packet Data")
            return try CaptureRecord.decode(
                packetData: &data,
                linkType: interfaces[interfaceID].linkType,
                timestamp: 0,
                originalLength: original,
                interfaceID: interfaceID
            )
        default:
            return nil
        }
    }

    /// At the end of the input, which `reader` is at: a file without a Section Header Block is
    /// no pcapng file.
    func finish(_ reader: WireReader) throws(WireError) {
        guard section >= 0 else {
            throw reader.error(.truncated(need: 28, have: 0), field: "Section Header Block")
        }
    }
}

/// One pcapng Interface Description Block: the link type, snap length and timestamp
/// resolution of the packets that name it.
public struct PcapngInterface: Hashable, Sendable {
    public var linkType: CaptureLinkType
    public var snapLength: UInt32
    public var timestampResolution: PcapngTimestampResolution
    /// The section (Section Header Block, counted from 0) the interface belongs to.
    public var section: Int

    public init(
        linkType: CaptureLinkType,
        snapLength: UInt32 = 0,
        timestampResolution: PcapngTimestampResolution = .microseconds,
        section: Int = 0
    ) {
        self.linkType = linkType
        self.snapLength = snapLength
        self.timestampResolution = timestampResolution
        self.section = section
    }
}

/// The pcapng `if_tsresol` option value: b7 clear = units of 10^-v seconds, b7 set = units
/// of 2^-v seconds. Absent, the default is 6 (microseconds).
public struct PcapngTimestampResolution: Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let microseconds = Self(rawValue: 6)
    public static let nanoseconds = Self(rawValue: 9)

    /// `units` of this resolution in nanoseconds, or nil when that overflows 64 bits.
    public func nanoseconds(_ units: UInt64) -> UInt64? {
        let exponent = Int(rawValue & 0x7F)
        if rawValue & 0x80 == 0 {
            if exponent <= 9 {
                var factor: UInt64 = 1
                for _ in 0..<(9 - exponent) { factor *= 10 }
                let (value, overflow) = units.multipliedReportingOverflow(by: factor)
                return overflow ? nil : value
            }
            var value = units
            for _ in 0..<min(exponent - 9, 20) { value /= 10 }
            return value
        }
        // units * 10^9 / 2^exponent, in 128 bits so the product cannot overflow.
        let product = units.multipliedFullWidth(by: 1_000_000_000)
        if exponent == 0 { return product.high == 0 ? product.low : nil }
        if exponent >= 128 { return 0 }
        let high = product.high
        let low = product.low
        if exponent >= 64 { return high >> UInt64(exponent - 64) }
        guard high >> UInt64(exponent) == 0 else { return nil }
        return (high << UInt64(64 - exponent)) | (low >> UInt64(exponent))
    }
}
