/// The finite cyclic groups SAE uses here (IEEE 802.11-2020 12.4.4; NAN pairing uses 19
/// with NCS-PK-PASN-128 and 20 with NCS-PK-PASN-256, nan-wire-reference.md 3.4).
public struct SAEGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let p256 = SAEGroup(rawValue: 19)
    public static let p384 = SAEGroup(rawValue: 20)
    public static let p521 = SAEGroup(rawValue: 21)

    /// Octets of a field element or scalar, for the elliptic-curve groups we can lay out.
    public var primeLength: Int? {
        switch rawValue {
        case 19: 32
        case 20: 48
        case 21: 66
        default: nil
        }
    }

    /// Confirm length = the group's hash length (SHA-256 / SHA-384 / SHA-512).
    public var confirmLength: Int? {
        switch rawValue {
        case 19: 32
        case 20: 48
        case 21: 64
        default: nil
        }
    }

    public var description: String {
        switch rawValue {
        case 19: "P-256"
        case 20: "P-384"
        case 21: "P-521"
        default: "group \(rawValue)"
        }
    }
}
