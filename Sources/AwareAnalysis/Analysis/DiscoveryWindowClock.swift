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

    public var references: [Reference]
    /// The references of each cluster and time base, sorted by capture time, for a binary search.
    private var timelines: [Timeline: [Reference]]

    private struct Timeline: Hashable {
        var cluster: MACAddress
        var usesMACTime: Bool
    }

    public init(frames: [CaptureFrame]) {
        references = frames.compactMap { frame in
            guard let management = frame.management, case .nanBeacon(let beacon) = management.body else {
                return nil
            }
            return Reference(
                cluster: management.header.address3,
                frame: frame.number,
                heardAt: frame.microseconds,
                usesMACTime: frame.macTimestamp != nil,
                tsf: beacon.timestamp
            )
        }
        timelines = Dictionary(grouping: references) { Timeline(cluster: $0.cluster, usesMACTime: $0.usesMACTime) }
            .mapValues { $0.sorted { $0.heardAt < $1.heardAt } }
    }

    /// Whether the capture holds a beacon of `cluster`.
    public func knows(_ cluster: MACAddress) -> Bool { references.contains { $0.cluster == cluster } }

    /// The cluster TSF (µs) at which `frame` was heard, and the beacon it was placed by.
    public func tsf(of frame: CaptureFrame, in cluster: MACAddress) -> (tsf: UInt64, reference: Reference)? {
        let heard = frame.microseconds
        let usesMACTime = frame.macTimestamp != nil
        guard let timeline = timelines[Timeline(cluster: cluster, usesMACTime: usesMACTime)], !timeline.isEmpty else {
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
        return (tsf, nearest)
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
