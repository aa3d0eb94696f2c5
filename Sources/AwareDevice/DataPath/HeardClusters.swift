import AwareCore
import AwareWire

/// The clusters an unsynchronized device hears beacons of, each with its TSF as this device's
/// clock sees it (TSF = local time + offset, as in ``ClusterStatus``).
///
/// A device that discovers with USD has no cluster of its own (nan-wire-reference.md 1.5), yet a
/// data path lives in a cluster: its NAFs carry the Cluster ID as A3 (1.3, 4.1) and its committed
/// slots count from that cluster's TSF (2.7). Such a device follows the cluster of its data path
/// the way a non-master non-sync member does (1.4, "practical note"): it adopts the Cluster ID
/// and the TSF of the beacons it hears, and sends none. Without that it took its own clock for
/// the cluster's, and listened in slots of its own that the peer's slots do not meet (issue 14).
struct HeardClusters {
    struct Cluster {
        var tsfOffsetMicroseconds: Int64
        var lastHeard: Instant
        /// Who sent its beacons: masters' discovery beacons and every synchronized member's sync
        /// beacons (1.4).
        var members: Set<MACAddress>
    }

    private(set) var clusters: [MACAddress: Cluster] = [:]
    /// The cluster heard last.
    private(set) var latest: MACAddress?

    /// A cluster not heard for this long is forgotten, unless a data path follows it.
    static let memory = Interval.seconds(60)
    /// A beacon whose estimate falls further behind the one held than this says the cluster's
    /// time is another one (its devices restarted under the same Cluster ID), not a late arrival.
    static let restartMicroseconds: Int64 = DataSlotClock.slotMicroseconds

    /// Notes a beacon of `clusterID` from `transmitter`, stamped `timestamp` (the cluster's TSF
    /// in µs when it was sent), that arrived at `arrival`. Returns whether the cluster's time
    /// as this device sees it changed.
    ///
    /// A beacon's arrival comes after its stamp by its channel access and airtime (and on the
    /// socket air by the receiving process's delay), never before it: each beacon's estimate
    /// falls short of the TSF by that delay, so the largest estimate heard is the closest.
    mutating func heard(
        clusterID: MACAddress,
        transmitter: MACAddress,
        timestamp: UInt64,
        arrival: Instant,
        keeping followed: Set<MACAddress> = []
    ) -> Bool {
        let estimate = Int64(clamping: timestamp) &- Int64(clamping: arrival.nanoseconds / 1_000)
        latest = clusterID
        forget(before: arrival + Interval(nanoseconds: -Self.memory.nanoseconds), keeping: followed.union([clusterID]))
        guard var cluster = clusters[clusterID] else {
            clusters[clusterID] = Cluster(tsfOffsetMicroseconds: estimate, lastHeard: arrival, members: [transmitter])
            return true
        }
        cluster.lastHeard = arrival
        cluster.members.insert(transmitter)
        let changed =
            estimate > cluster.tsfOffsetMicroseconds
            || cluster.tsfOffsetMicroseconds - estimate > Self.restartMicroseconds
        if changed { cluster.tsfOffsetMicroseconds = estimate }
        clusters[clusterID] = cluster
        return changed
    }

    /// The TSF offset of `clusterID`, once one of its beacons was heard.
    func tsfOffset(of clusterID: MACAddress) -> Int64? { clusters[clusterID]?.tsfOffsetMicroseconds }

    /// The cluster `peer` sent beacons in last, else the cluster heard last: the one a data path
    /// with `peer` follows.
    func cluster(of peer: MACAddress) -> MACAddress? {
        let peers = clusters.filter { $0.value.members.contains(peer) }
        if let heard = peers.max(by: { $0.value.lastHeard < $1.value.lastHeard }) { return heard.key }
        return latest
    }

    private mutating func forget(before limit: Instant, keeping followed: Set<MACAddress>) {
        guard clusters.count > 1 else { return }
        clusters = clusters.filter { followed.contains($0.key) || $0.value.lastHeard >= limit }
    }
}
