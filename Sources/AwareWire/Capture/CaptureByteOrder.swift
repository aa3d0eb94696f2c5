/// The byte order of a capture file: classic pcap and each pcapng section are written in
/// the writer's host order, told apart by their magic numbers.
public enum CaptureByteOrder: Hashable, Sendable {
    case littleEndian
    case bigEndian
}

extension WireReader {
    mutating func readUInt16(_ order: CaptureByteOrder, _ field: String) throws(WireError) -> UInt16 {
        order == .littleEndian ? try readUInt16LE(field) : try readUInt16BE(field)
    }

    mutating func readUInt32(_ order: CaptureByteOrder, _ field: String) throws(WireError) -> UInt32 {
        order == .littleEndian ? try readUInt32LE(field) : try readUInt32BE(field)
    }
}
