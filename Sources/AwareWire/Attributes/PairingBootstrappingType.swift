/// NPBA Type: bits 0-3 of Type and Status (nan-wire-reference.md 2.18). Values 3-15 are
/// reserved and kept as ``reserved(_:)`` so that any octet round-trips.
public enum PairingBootstrappingType: Hashable, Sendable {
    case advertise
    case request
    case response
    case reserved(UInt8)

    /// The type in the low four bits of `nibble`.
    public init(nibble: UInt8) {
        switch nibble & 0x0F {
        case 0: self = .advertise
        case 1: self = .request
        case 2: self = .response
        case let other: self = .reserved(other)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .advertise: 0
        case .request: 1
        case .response: 2
        case .reserved(let value): value & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .advertise: "Advertise"
        case .request: "Request"
        case .response: "Response"
        case .reserved: "Reserved"
        }
    }
}
