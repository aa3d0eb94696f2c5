/// The Type nibble (b0-3 of Type and Status) of the NDP and NDPE attributes
/// (nan-wire-reference.md 2.10): 0 Request, 1 Response, 2 Confirm, 3 Security Install,
/// 4 Terminate; other codes are reserved and kept.
public enum NDPType: DataPathType {
    case request
    case response
    case confirm
    case securityInstall
    case terminate
    /// A reserved code (5...15).
    case reserved(UInt8)

    public init(code: UInt8) {
        switch code & 0x0F {
        case 0: self = .request
        case 1: self = .response
        case 2: self = .confirm
        case 3: self = .securityInstall
        case 4: self = .terminate
        default: self = .reserved(code & 0x0F)
        }
    }

    public var code: UInt8 {
        switch self {
        case .request: 0
        case .response: 1
        case .confirm: 2
        case .securityInstall: 3
        case .terminate: 4
        case .reserved(let code): code & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .request: "Request"
        case .response: "Response"
        case .confirm: "Confirm"
        case .securityInstall: "Security Install"
        case .terminate: "Terminate"
        case .reserved: "Reserved"
        }
    }
}
