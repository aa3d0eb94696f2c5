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
