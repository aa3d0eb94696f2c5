/// The Sequence Control field (IEEE 802.11-2020 9.2.4.4): Fragment Number (b0-b3) and
/// Sequence Number (b4-b15), little-endian.
public struct SequenceControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `sequenceNumber` keeps its low 12 bits and `fragmentNumber` its low 4 bits.
    public init(sequenceNumber: UInt16, fragmentNumber: UInt8 = 0) {
        rawValue = (sequenceNumber & 0x0FFF) << 4 | UInt16(fragmentNumber & 0x0F)
    }

    public var fragmentNumber: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x000F) }
    public var sequenceNumber: UInt16 { rawValue >> 4 }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("Sequence Control")
    }

    public func write(to writer: inout WireWriter) { writer.writeUInt16LE(rawValue) }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("sequenceControl", "Sequence Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("fragmentNumber", "Fragment Number", .unsigned(UInt64(fragmentNumber))),
            DecodedField("sequenceNumber", "Sequence Number", .unsigned(UInt64(sequenceNumber))),
        ]
    }
}
