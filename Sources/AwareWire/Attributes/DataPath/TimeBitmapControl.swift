/// Time Bitmap Control (2, LE) (nan-wire-reference.md 2.7, 5):
/// b0-2 Bit Duration, b3-5 Period, b6-14 Start Offset in units of 16 TU, b15 reserved.
///
/// The raw field is the value, so the reserved bit survives a round trip.
public struct TimeBitmapControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// - Parameter startOffset: in units of 16 TU, 0...511 (a 9-bit field).
    public init(
        bitDuration: TimeBitmapBitDuration,
        period: TimeBitmapPeriod,
        startOffset: UInt16 = 0,
        reservedBit: Bool = false
    ) {
        precondition(startOffset <= Self.maxStartOffset, "Start Offset is a 9-bit field")
        rawValue =
            UInt16(bitDuration.code) | UInt16(period.rawValue) << 3 | startOffset << 6
            | (reservedBit ? 0x8000 : 0)
    }

    public static let maxStartOffset: UInt16 = 0x1FF

    public var bitDuration: TimeBitmapBitDuration {
        TimeBitmapBitDuration(code: UInt8(truncatingIfNeeded: rawValue))
    }

    public var period: TimeBitmapPeriod {
        TimeBitmapPeriod(code: UInt8(truncatingIfNeeded: rawValue >> 3))
    }

    /// Start Offset in units of 16 TU.
    public var startOffset: UInt16 { (rawValue >> 6) & Self.maxStartOffset }

    public var startOffsetTU: Int { Int(startOffset) * 16 }

    /// Bit 15, reserved.
    public var reservedBit: Bool { rawValue & 0x8000 != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("Time Bitmap Control")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(rawValue)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("timeBitmapControl", "Time Bitmap Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("bitDuration", "Bit Duration", .named(UInt64(bitDuration.code), bitDuration.name)),
            DecodedField("period", "Period", .named(UInt64(period.rawValue), period.name)),
            DecodedField("startOffset", "Start Offset (x16 TU)", .unsigned(UInt64(startOffset))),
        ]
    }
}
