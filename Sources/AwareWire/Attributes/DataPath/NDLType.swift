/// The Type nibble (b0-3 of Type and Status) of the NDL attribute
/// (nan-wire-reference.md 2.9): 0 Request, 1 Response, 2 Confirm; other codes are
/// reserved and kept.
public enum NDLType: DataPathType {
    case request
    case response
    case confirm
    /// A reserved code (3...15).
    case reserved(UInt8)

    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .request
        case 1: self = .response
        case 2: self = .confirm
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .request: 0
        case .response: 1
        case .confirm: 2
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .request: "Request"
        case .response: "Response"
        case .confirm: "Confirm"
        case .reserved: "Reserved"
        }
    }
}
