/// A pcap / pcapng link type (tcpdump.org LINKTYPE_ values; platform-notes.md 4). An open
/// set: records of other link types are read and kept as octets.
public struct CaptureLinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// LINKTYPE_IEEE802_11: 802.11 MAC header and body.
    public static let ieee80211 = Self(rawValue: 105)
    /// LINKTYPE_IEEE802_11_RADIOTAP: a radiotap header, then the 802.11 frame.
    public static let ieee80211Radiotap = Self(rawValue: 127)

    public var description: String {
        switch rawValue {
        case 105: "IEEE 802.11 Wireless LAN (105)"
        case 127: "IEEE 802.11 plus radiotap radio header (127)"
        default: "link type \(rawValue)"
        }
    }
}
