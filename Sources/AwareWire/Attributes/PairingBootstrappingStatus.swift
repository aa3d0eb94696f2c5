/// NPBA Status: bits 4-7 of Type and Status (nan-wire-reference.md 2.18). Values 3-15 are
/// reserved and kept as ``reserved(_:)`` so that any octet round-trips.
public enum PairingBootstrappingStatus: Hashable, Sendable {
    case accepted
    case rejected
    /// The responder needs time (for example to show a PIN): the Comeback field follows.
    case comeback
    case reserved(UInt8)

    /// The status in the low four bits of `nibble`.
    public init(nibble: UInt8) {
        switch nibble & 0x0F {
        case 0: self = .accepted
        case 1: self = .rejected
        case 2: self = .comeback
        case let other: self = .reserved(other)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .accepted: 0
        case .rejected: 1
        case .comeback: 2
        case .reserved(let value): value & 0x0F
        }
    }

    public var name: String {
        switch self {
        case .accepted: "Accepted"
        case .rejected: "Rejected"
        case .comeback: "Comeback"
        case .reserved: "Reserved"
        }
    }
}
