import AwareCore

/// Reads any capture AwareBench meets: classic pcap (either byte order, µs or ns) or
/// pcapng, told apart by the first four octets.
public enum CaptureReader {
    /// The container formats.
    public enum Format: Hashable, Sendable {
        case pcap
        case pcapng
    }

    /// The longest pcap record (header and `incl_len`) or pcapng block (Block Total Length) any
    /// reader here takes: 16 MiB. An 802.11 frame is at most some 11 kB, so a longer length is a
    /// lie, and refusing it at once keeps a reader from waiting for, or holding, gigabytes
    /// because one length field says so. Wireshark's pcapng reader long refused blocks over
    /// 16 MiB for the same reason; libpcap has limits of its own.
    public static let maximumBlockLength = 16 << 20

    /// The format `bytes` start with, or nil.
    public static func format(of bytes: [UInt8]) -> Format? {
        if PcapngFile.isPcapng(bytes[...]) { return .pcapng }
        if PcapFile.magic(bytes[...]) != nil { return .pcap }
        return nil
    }

    /// The records of the file up to the first error, and that error: a sniffer killed mid-write
    /// leaves a capture whose last record is cut short, and the frames before it still count.
    /// Without a recognised magic no record is read.
    public static func readAvailable(bytes: [UInt8]) -> (records: [CaptureRecord], error: WireError?) {
        var records: [CaptureRecord] = []
        do {
            switch format(of: bytes) {
            case .pcapng?: _ = try PcapngFile(bytes: bytes, recordsRead: &records)
            case .pcap?: _ = try PcapFile(bytes: bytes, recordsRead: &records)
            case nil: _ = try read(bytes: bytes)
            }
            return (records, nil)
        } catch {
            return (records, error)
        }
    }

    /// Every record of the file, in file order.
    public static func read(bytes: [UInt8]) throws(WireError) -> [CaptureRecord] {
        switch format(of: bytes) {
        case .pcapng?: return try PcapngFile(bytes: bytes).records
        case .pcap?: return try PcapFile(bytes: bytes).records
        case nil:
            let reader = WireReader(bytes, structure: "capture file")
            if bytes.count < 4 { throw reader.error(.truncated(need: 4, have: bytes.count), field: "magic") }
            throw reader.error(
                .invalidValue("magic \(HexString.encode(bytes.prefix(4))) is neither pcap nor pcapng"),
                field: "magic"
            )
        }
    }
}

/// The byte order of a capture file: classic pcap and each pcapng section are written in
/// the writer's host order, told apart by their magic numbers.
public enum CaptureByteOrder: Hashable, Sendable {
    case littleEndian
    case bigEndian

    /// The 32-bit value at `offset` from the start of `octets`, which must hold it: for a
    /// reader that looks at a length before it has the octets the length covers.
    func uint32(_ octets: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        let start = octets.startIndex + offset
        var value: UInt32 = 0
        for index in 0..<4 {
            let octet = UInt32(octets[start + index])
            value |= self == .littleEndian ? octet << (8 * UInt32(index)) : octet << (8 * UInt32(3 - index))
        }
        return value
    }
}

extension WireReader {
    mutating func readUInt16(_ order: CaptureByteOrder, _ field: String) throws(WireError) -> UInt16 {
        order == .littleEndian ? try readUInt16LE(field) : try readUInt16BE(field)
    }

    mutating func readUInt32(_ order: CaptureByteOrder, _ field: String) throws(WireError) -> UInt32 {
        order == .littleEndian ? try readUInt32LE(field) : try readUInt32BE(field)
    }
}
