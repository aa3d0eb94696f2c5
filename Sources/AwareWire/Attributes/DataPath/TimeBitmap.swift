/// Time Bitmap Control (2, LE) | Time Bitmap Length (1) | Time Bitmap
/// (nan-wire-reference.md 2.7, 2.8), as carried by availability entries, NDC and NDL
/// schedule entries.
///
/// Bit i (the LSB of octet 0 first) stands for slot i: one Bit Duration starting at
/// Start Offset + i x Bit Duration.
public struct TimeBitmap: Hashable, Sendable, WireCodable, WireDescribable {
    public var control: TimeBitmapControl
    /// At most 255 octets (1-octet length).
    public var bitmap: [UInt8]

    public init(control: TimeBitmapControl, bitmap: [UInt8]) {
        precondition(bitmap.count <= 0xFF, "Time Bitmap Length is one octet")
        self.control = control
        self.bitmap = bitmap
    }

    public init(from reader: inout WireReader) throws(WireError) {
        control = try TimeBitmapControl(from: &reader)
        let length = Int(try reader.readUInt8("Time Bitmap Length"))
        var body = try reader.subReader(length: length, field: "Time Bitmap Length")
        bitmap = body.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        control.write(to: &writer)
        writer.withLength8 { $0.write(bitmap) }
    }

    /// Indices of the set bits, lowest first.
    public var slotIndices: [Int] {
        var indices: [Int] = []
        for (octetIndex, octet) in bitmap.enumerated() {
            for bit in 0..<8 where octet & (1 << bit) != 0 {
                indices.append(octetIndex * 8 + bit)
            }
        }
        return indices
    }

    /// The TU intervals the set bits cover, one per slot, counted from the start of the
    /// repetition period (or of the schedule when Period is "no repeat"); nil when the
    /// Bit Duration code is reserved and the slot length is unknown.
    public var intervalsTU: [Range<Int>]? {
        guard let duration = control.bitDuration.timeUnits else { return nil }
        let start = control.startOffsetTU
        return slotIndices.map { (start + $0 * duration)..<(start + ($0 + 1) * duration) }
    }

    public var decodedFields: [DecodedField] {
        var fields = control.decodedFields
        fields.append(DecodedField("timeBitmapLength", "Time Bitmap Length", .unsigned(UInt64(bitmap.count))))
        fields.append(DecodedField("timeBitmap", "Time Bitmap", .bytes(bitmap)))
        return fields
    }
}

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

/// The Bit Duration sub-field (b0-2) of a Time Bitmap Control: how long one bitmap bit
/// lasts (nan-wire-reference.md 2.7). Codes 4-7 are reserved; they are kept so that a
/// received control re-serializes unchanged.
public enum TimeBitmapBitDuration: Hashable, Sendable {
    case tu16
    case tu32
    case tu64
    case tu128
    /// A reserved code (4...7).
    case reserved(UInt8)

    /// Reads the 3-bit code; higher bits are ignored.
    public init(code: UInt8) {
        switch code & 0x07 {
        case 0: self = .tu16
        case 1: self = .tu32
        case 2: self = .tu64
        case 3: self = .tu128
        default: self = .reserved(code & 0x07)
        }
    }

    /// The 3-bit code written in the control field.
    public var code: UInt8 {
        switch self {
        case .tu16: 0
        case .tu32: 1
        case .tu64: 2
        case .tu128: 3
        case .reserved(let code): code & 0x07
        }
    }

    /// The duration of one bit in TU; nil for a reserved code.
    public var timeUnits: Int? {
        switch self {
        case .tu16: 16
        case .tu32: 32
        case .tu64: 64
        case .tu128: 128
        case .reserved: nil
        }
    }

    public var name: String {
        timeUnits.map { "\($0) TU" } ?? "Reserved"
    }
}

/// The Period sub-field (b3-5) of a Time Bitmap Control: how often the bitmap repeats
/// (nan-wire-reference.md 2.7). All eight codes are defined; 0 means the bitmap does not
/// repeat.
public enum TimeBitmapPeriod: UInt8, Hashable, Sendable, CaseIterable {
    case noRepeat = 0
    case tu128 = 1
    case tu256 = 2
    case tu512 = 3
    case tu1024 = 4
    case tu2048 = 5
    case tu4096 = 6
    case tu8192 = 7

    /// Reads the 3-bit code; higher bits are ignored.
    public init(code: UInt8) {
        self = Self(rawValue: code & 0x07) ?? .noRepeat
    }

    /// The repetition period in TU; nil when the bitmap does not repeat.
    public var timeUnits: Int? {
        rawValue == 0 ? nil : 64 << Int(rawValue)
    }

    public var name: String {
        timeUnits.map { "\($0) TU" } ?? "No repeat"
    }
}
