/// What an nl80211 command is addressed to. A netdev (`wlan0`) is named by its ifindex; a NAN
/// device is a wdev without a netdev, so it has only a wdev ID (`NL80211_ATTR_WDEV`, u64; the
/// upper 32 bits are the wiphy index, `net/wireless/core.c` `cfg80211_register_wdev`).
public enum NL80211Device: Hashable, Sendable, CustomStringConvertible {
    case interfaceIndex(UInt32)
    case wirelessDevice(UInt64)

    /// The attribute that names this device in a request.
    public var attribute: NetlinkAttribute {
        switch self {
        case .interfaceIndex(let index): .u32(NL80211Constants.Attribute.interfaceIndex.rawValue, index)
        case .wirelessDevice(let wdev): .u64(NL80211Constants.Attribute.wdev.rawValue, wdev)
        }
    }

    public var description: String {
        switch self {
        case .interfaceIndex(let index): "ifindex \(index)"
        case .wirelessDevice(let wdev): "wdev 0x\(String(wdev, radix: 16))"
        }
    }
}
