/// Why a command was refused; the engine's state is unchanged.
public enum DiscoveryCommandError: Error, Hashable, Sendable {
    /// Instance IDs are 1...255 (nan-wire-reference.md 2.4); 0 means "none" in Requestor Instance ID.
    case instanceIDZero
    case instanceIDInUse(UInt8)
    case noFreeInstanceID
    case unknownInstance(UInt8)
    /// A matching filter over 255 octets does not fit the SDA's length octet.
    case matchingFilterTooLong(octets: Int)
    /// SDEA Service Info over 65535 octets does not fit its length field (2.5).
    case serviceInfoTooLong(octets: Int)
    /// A follow-up is sent by a publish or subscribe; the instance named is neither.
    case followUpFromUnknownInstance(UInt8)
}
