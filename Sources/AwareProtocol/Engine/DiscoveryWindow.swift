import AwareCore
import AwareWire

/// One discovery window of a cluster on one channel, in local time: what the synchronization
/// machine tells the discovery machine so that it sends SDFs only inside windows, with
/// A3 = the Cluster ID (nan-wire-reference.md 1.3, 1.4).
public struct DiscoveryWindow: Hashable, Sendable {
    public var channel: NANChannel
    public var clusterID: MACAddress
    public var start: Instant
    public var end: Instant

    public init(channel: NANChannel, clusterID: MACAddress, start: Instant, end: Instant) {
        self.channel = channel
        self.clusterID = clusterID
        self.start = start
        self.end = end
    }

    public func contains(_ instant: Instant) -> Bool { instant >= start && instant < end }
}
