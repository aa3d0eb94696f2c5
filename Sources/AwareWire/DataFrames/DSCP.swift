/// A Differentiated Services Code Point (RFC 2474): the upper 6 bits of the IPv6 Traffic
/// Class octet.
///
/// The sender picks the code point of the traffic's access category with the mapping of RFC
/// 8325 (4.3), read the other way round: Voice = EF (46, mapped to UP 6), Video = AF41 (34,
/// UP 4), Best Effort = CS0 (0, UP 0), Background = CS1 (8, UP 1). A receiver that applies
/// RFC 8325 then lands the packet in the same category.
public struct DSCP: RawRepresentable, Hashable, Sendable {
    /// The 6-bit code point (values above 63 keep their low 6 bits).
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x3F }

    /// Class Selector 0, default forwarding: Best Effort.
    public static let cs0 = DSCP(rawValue: 0)
    /// Class Selector 1, low-priority data: Background.
    public static let cs1 = DSCP(rawValue: 8)
    /// Assured Forwarding 41, multimedia conferencing: Video.
    public static let af41 = DSCP(rawValue: 34)
    /// Expedited Forwarding, telephony: Voice.
    public static let expeditedForwarding = DSCP(rawValue: 46)

    /// The code point for traffic of 802.1D user priority `userPriority` (a TID 0-7): one per
    /// access category (IEEE 802.11-2020 Table 10-1 groups the priorities; RFC 8325 4.3
    /// names the code point of each).
    public init(userPriority: UInt8) {
        switch userPriority & 0x07 {
        case 1, 2: self = .cs1
        case 0, 3: self = .cs0
        case 4, 5: self = .af41
        default: self = .expeditedForwarding
        }
    }

    /// The Traffic Class octet with this code point and ECN 00 (not ECN-capable).
    public var trafficClass: UInt8 { rawValue << 2 }
}
