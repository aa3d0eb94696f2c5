/// The SDEA Control field (2 octets, LE; nan-wire-reference.md 2.5, hostap `NAN_SDEA_CTRL_*`).
/// Every bit is representable, reserved bits included, so any parsed control round-trips.
public struct ServiceDescriptorExtensionControl: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let fsdRequired = Self(rawValue: 1 << 0)
    public static let fsdWithGAS = Self(rawValue: 1 << 1)
    public static let dataPathRequired = Self(rawValue: 1 << 2)
    /// Data Path Type: 0 = unicast; 1 is reserved.
    public static let dataPathType = Self(rawValue: 1 << 3)
    /// Bit 4, "multicast type": reserved in the reference's table.
    public static let multicastType = Self(rawValue: 1 << 4)
    public static let qosRequired = Self(rawValue: 1 << 5)
    public static let securityRequired = Self(rawValue: 1 << 6)
    public static let rangingRequired = Self(rawValue: 1 << 7)
    public static let rangeLimitPresent = Self(rawValue: 1 << 8)
    public static let serviceUpdateIndicatorPresent = Self(rawValue: 1 << 9)
    /// GTK Required: in hostap only, not in Wireshark's table.
    public static let gtkRequired = Self(rawValue: 1 << 10)
    /// Bits 11-15.
    public static let reserved = Self(rawValue: 0xF800)

    /// The bits that say which optional SDEA fields follow; an SDEA derives them from its fields.
    public static let presenceBits: Self = [.rangeLimitPresent, .serviceUpdateIndicatorPresent]
}
