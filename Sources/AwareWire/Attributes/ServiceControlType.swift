/// Service Control Type: bits 0-1 of the SDA Service Control (nan-wire-reference.md 2.4).
/// hostap discards an SDA of type 3; it is kept here so that any octet round-trips.
public enum ServiceControlType: UInt8, Hashable, Sendable, CaseIterable {
    case publish = 0
    case subscribe = 1
    case followUp = 2
    case reserved = 3

    /// The type held in the low two bits of `control`.
    public init(control: UInt8) {
        switch control & 0x03 {
        case 0: self = .publish
        case 1: self = .subscribe
        case 2: self = .followUp
        default: self = .reserved
        }
    }

    public var name: String {
        switch self {
        case .publish: "Publish"
        case .subscribe: "Subscribe"
        case .followUp: "Follow-up"
        case .reserved: "Reserved"
        }
    }
}
