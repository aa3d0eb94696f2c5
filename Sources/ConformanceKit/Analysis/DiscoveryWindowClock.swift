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
    }

    /// Whether the capture holds a beacon of `cluster`.
    public func knows(_ cluster: MACAddress) -> Bool { references.contains { $0.cluster == cluster } }

    /// The cluster TSF (µs) at which `frame` was heard, and the beacon it was placed by.
    public func tsf(of frame: CaptureFrame, in cluster: MACAddress) -> (tsf: UInt64, reference: Reference)? {
        let heard = frame.microseconds
        let usesMACTime = frame.macTimestamp != nil
        let candidates = references.filter { $0.cluster == cluster && $0.usesMACTime == usesMACTime }
        guard
            let nearest = candidates.min(by: {
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
