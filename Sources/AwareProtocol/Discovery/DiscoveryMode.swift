import AwareCore
import AwareWire

/// How SDFs reach the air.
public enum DiscoveryMode: Hashable, Sendable {
    /// Unsynchronized service discovery (nan-wire-reference.md 1.5): no cluster, no windows;
    /// multicast SDFs with A1 = A3 = NAN Network ID on one channel, announced periodically.
    case unsynchronized(channel: NANChannel)
    /// SDFs only inside the discovery windows a ``SynchronizationEngine`` reports, with
    /// A3 = Cluster ID (nan-wire-reference.md 1.3, 1.4).
    case synchronized

    /// USD on channel 6, hostap's `NAN_USD_DEFAULT_FREQ` 2437 MHz (1.5).
    public static let usd = DiscoveryMode.unsynchronized(channel: .channel6)

    /// The RSSI at or above which a peer counts as in range for Discovery Range Limited
    /// services. USD: hostap `NAN_DE_RSSI_CLOSE_PROXIMITY` -70 dBm (1.5). Synchronized: the
    /// cluster's RSSI_close, -60 dBm (OpenNAN peer.h, nl80211 band configuration; 1.4), the
    /// same threshold the master election uses for "close".
    public var defaultRangeThresholdDBm: Int {
        switch self {
        case .unsynchronized: -70
        case .synchronized: -60
        }
    }
}
