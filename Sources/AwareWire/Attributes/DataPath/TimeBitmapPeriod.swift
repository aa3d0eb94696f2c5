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
