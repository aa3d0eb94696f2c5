/// The Wrapped Data Format of the PASN Parameters element (IEEE 802.11-2020 9.4.2.304;
/// nan-wire-reference.md 3.4.1): what the Wrapped Data element holds.
public enum WrappedDataFormat: Hashable, Sendable {
    case noWrappedData
    case ftAuthentication
    case filsSharedKey
    case sae
    case reserved(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .noWrappedData
        case 1: self = .ftAuthentication
        case 2: self = .filsSharedKey
        case 3: self = .sae
        default: self = .reserved(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .noWrappedData: 0
        case .ftAuthentication: 1
        case .filsSharedKey: 2
        case .sae: 3
        case .reserved(let value): value
        }
    }

    public var name: String {
        switch self {
        case .noWrappedData: "No wrapped data"
        case .ftAuthentication: "FT authentication"
        case .filsSharedKey: "FILS shared key authentication"
        case .sae: "SAE authentication"
        case .reserved: "Reserved"
        }
    }
}
