/// NDP Control (1) of the NDP and NDPE attributes (nan-wire-reference.md 2.10; hostap
/// `NAN_NDP_CTRL_*`): b0 Confirm Required, b1 reserved, b2 Security Present, b3 Publish ID
/// Present, b4 Responder NDI Present, b5 NDP Specific Info Present (NDP) or GTK Required
/// (NDPE), b6-7 reserved. Unknown bits are kept in the raw value.
public struct NDPControl: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let confirmRequired = Self(rawValue: 0x01)
    public static let securityPresent = Self(rawValue: 0x04)
    public static let publishIDPresent = Self(rawValue: 0x08)
    public static let responderNDIPresent = Self(rawValue: 0x10)
    /// b5 in the NDP attribute.
    public static let ndpSpecificInfoPresent = Self(rawValue: 0x20)
    /// b5 in the NDPE attribute (the same bit as ``ndpSpecificInfoPresent``).
    public static let gtkRequired = Self(rawValue: 0x20)
}
