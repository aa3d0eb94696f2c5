/// The Status nibble (b4-7 of Type and Status) of the NDP, NDPE and NDL attributes
/// (nan-wire-reference.md 2.9, 2.10): 0 Continued, 1 Accepted, 2 Rejected; other codes
/// are reserved and kept.
public enum DataPathStatus: Hashable, Sendable {
    case continued
    case accepted
    case rejected
    /// A reserved code (3...15).
    case reserved(UInt8)

    /// Reads the 4-bit code; higher bits are ignored.
    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .continued
        case 1: self = .accepted
        case 2: self = .rejected
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .continued: 0
        case .accepted: 1
        case .rejected: 2
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .continued: "Continued"
        case .accepted: "Accepted"
        case .rejected: "Rejected"
        case .reserved: "Reserved"
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(code), name) }
}
