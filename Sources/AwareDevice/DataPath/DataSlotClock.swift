import AwareCore
import AwareWire

/// Where the 16 TU availability slots of a NAN schedule fall on a device's own clock.
///
/// Schedules count slots from the cluster's TSF: slot 0 of every period starts when the TSF is a
/// multiple of the period, with the 2.4 GHz discovery window (nan-wire-reference.md 1.4, 2.7).
/// The period is 512 TU unless the data path's schedule only repeats over a longer one (up to
/// 8192 TU, ``NDPSchedule/periodSlots``); 8192 TU divides the TSF's range, so every period starts
/// at a multiple of itself. A device keeps its local clock and an offset (TSF = local + offset, ``ClusterStatus``),
/// so the slot boundaries move when the device adopts another cluster's TSF.
public struct DataSlotClock: Hashable, Sendable {
    public static let slotMicroseconds: Int64 = 16 * 1_024
    public static let slotsPerPeriod = 32
    public static let periodMicroseconds: Int64 = slotMicroseconds * Int64(slotsPerPeriod)

    /// TSF (µs) = local time (µs) + this offset.
    public var tsfOffsetMicroseconds: Int64
    /// The slots of one period: 32 (512 TU) up to 512 (8192 TU).
    public var periodSlots: Int

    public init(tsfOffsetMicroseconds: Int64, periodSlots: Int = DataSlotClock.slotsPerPeriod) {
        self.tsfOffsetMicroseconds = tsfOffsetMicroseconds
        self.periodSlots = max(periodSlots, 1)
    }

    private var periodLength: Int64 { Self.slotMicroseconds * Int64(periodSlots) }

    private func tsf(at instant: Instant) -> Int64 {
        Int64(clamping: instant.nanoseconds / 1_000) &+ tsfOffsetMicroseconds
    }

    /// The slot (0 to ``periodSlots`` - 1) `instant` falls in.
    public func slot(at instant: Instant) -> Int {
        let position = tsf(at: instant) % periodLength
        let inPeriod = position < 0 ? position + periodLength : position
        return Int(inPeriod / Self.slotMicroseconds)
    }

    /// The start of the slot `instant` falls in.
    public func slotStart(containing instant: Instant) -> Instant {
        let position = tsf(at: instant) % Self.slotMicroseconds
        let into = position < 0 ? position + Self.slotMicroseconds : position
        return instant + Interval.microseconds(-into) + Interval(nanoseconds: -Int64(instant.nanoseconds % 1_000))
    }

    /// The next slot boundary strictly after `instant`.
    public func nextSlotStart(after instant: Instant) -> Instant {
        slotStart(containing: instant) + .microseconds(Self.slotMicroseconds)
    }

    /// The start of the next run of slots in `slots` at or after `instant`, and the end of that
    /// run (consecutive slots merge, across the period boundary too). nil when `slots` is empty.
    /// When `instant` is inside an available slot the window returned is the current one.
    public func window(atOrAfter instant: Instant, in slots: Set<Int>) -> (start: Instant, end: Instant)? {
        guard !slots.isEmpty else { return nil }
        var start = slotStart(containing: instant)
        var slot = self.slot(at: instant)
        var steps = 0
        while !slots.contains(slot) {
            start = start + .microseconds(Self.slotMicroseconds)
            slot = (slot + 1) % periodSlots
            steps += 1
            if steps > periodSlots { return nil }
        }
        var end = start + .microseconds(Self.slotMicroseconds)
        var next = (slot + 1) % periodSlots
        var length = 1
        while slots.contains(next), length < periodSlots {
            end = end + .microseconds(Self.slotMicroseconds)
            next = (next + 1) % periodSlots
            length += 1
        }
        return (max(start, instant), end)
    }

    /// The start of the run of slots in `slots` that `instant` falls in (runs merge across the
    /// period boundary); `instant` itself when it is in no such slot.
    public func windowStart(containing instant: Instant, in slots: Set<Int>) -> Instant {
        var start = slotStart(containing: instant)
        var slot = self.slot(at: instant)
        guard slots.contains(slot) else { return instant }
        var steps = 0
        while steps < periodSlots - 1 {
            let previous = (slot + periodSlots - 1) % periodSlots
            guard slots.contains(previous) else { break }
            slot = previous
            start = start + .microseconds(-Self.slotMicroseconds)
            steps += 1
        }
        return start
    }
}

// MARK: - HeardClusters

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
