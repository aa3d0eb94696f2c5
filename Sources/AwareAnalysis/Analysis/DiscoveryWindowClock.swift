import AwareCore
import AwareWire

/// Maps capture time onto a cluster's synchronized TSF, from the NAN beacons the capture
/// holds: a beacon's Timestamp is the sender's TSF (nan-wire-reference.md 1.4), so a frame
/// heard Δ after a beacon of the same cluster was sent at TSF = Timestamp + Δ. The nearest
/// beacon in time is used, which keeps clock drift between sniffer and cluster small.
///
/// Without a beacon of a cluster in the capture the analyzer cannot place that cluster's
/// discovery windows, and says so rather than guessing.
public struct DiscoveryWindowClock: Hashable, Sendable {
    /// One NAN beacon: its cluster (A3), frame number, capture time (µs) and Timestamp (TSF µs).
    public struct Reference: Hashable, Sendable {
        public var cluster: MACAddress
        public var frame: Int
        public var heardAt: UInt64
        public var usesMACTime: Bool
        public var tsf: UInt64
    }

    /// The beacons of each cluster and time base, sorted by capture time (after ``finish()``),
    /// for a binary search.
    private var timelines: [Timeline: [Entry]] = [:]
    /// A beacon was heard out of capture-time order: ``finish()`` sorts.
    private var needsSorting = false

    private struct Timeline: Hashable {
        var cluster: MACAddress
        var usesMACTime: Bool
    }

    /// One beacon on its timeline, in 24 octets: a capture of hours holds a beacon every 512 TU
    /// per cluster, and the clock keeps them all.
    private struct Entry: Hashable {
        var frame: Int
        var heardAt: UInt64
        var tsf: UInt64
    }

    public init() {}

    public init(frames: [CaptureFrame]) {
        for frame in frames { add(frame) }
        finish()
    }

    /// Takes in the next frame of the capture: a NAN beacon becomes a reference.
    public mutating func add(_ frame: CaptureFrame) {
        guard let management = frame.management, case .nanBeacon(let beacon) = management.body else { return }
        let timeline = Timeline(cluster: management.header.address3, usesMACTime: frame.macTimestamp != nil)
        let entry = Entry(frame: frame.number, heardAt: frame.microseconds, tsf: beacon.timestamp)
        if let last = timelines[timeline]?.last, last.heardAt > entry.heardAt { needsSorting = true }
        timelines[timeline, default: []].append(entry)
    }

    /// Orders each timeline by capture time, once every beacon is in.
    public mutating func finish() {
        guard needsSorting else { return }
        timelines = timelines.mapValues { $0.sorted { $0.heardAt < $1.heardAt } }
        needsSorting = false
    }

    /// Whether the capture holds a beacon of `cluster`.
    public func knows(_ cluster: MACAddress) -> Bool { timelines.keys.contains { $0.cluster == cluster } }

    /// The cluster TSF (µs) at which `frame` was heard, and the beacon it was placed by.
    public func tsf(of frame: CaptureFrame, in cluster: MACAddress) -> (tsf: UInt64, reference: Reference)? {
        let heard = frame.microseconds
        let usesMACTime = frame.macTimestamp != nil
        let key = Timeline(cluster: cluster, usesMACTime: usesMACTime)
        guard let timeline = timelines[key], !timeline.isEmpty else {
            return nil
        }
        // The first reference heard at or after the frame, and the one before it.
        var low = 0
        var high = timeline.count
        while low < high {
            let middle = (low + high) / 2
            if timeline[middle].heardAt < heard { low = middle + 1 } else { high = middle }
        }
        let neighbours = [low - 1, low].filter { timeline.indices.contains($0) }.map { timeline[$0] }
        guard
            let nearest = neighbours.min(by: {
                Self.distance($0.heardAt, heard) < Self.distance($1.heardAt, heard)
            })
        else { return nil }
        let tsf =
            heard >= nearest.heardAt
            ? nearest.tsf &+ (heard - nearest.heardAt) : nearest.tsf &- (nearest.heardAt - heard)
        let reference = Reference(
            cluster: cluster,
            frame: nearest.frame,
            heardAt: nearest.heardAt,
            usesMACTime: usesMACTime,
            tsf: nearest.tsf
        )
        return (tsf, reference)
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
