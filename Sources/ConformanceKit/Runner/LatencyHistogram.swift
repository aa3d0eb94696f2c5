import AwareCore
import AwareProtocol
import AwareWire

/// Latency samples of one access category, as a performance test measured them, bucketed for the
/// reports (docs/reference/reports.md, "An iteration", `latency`). Fixed bucket bounds make histograms of
/// different runs and accessories comparable at a glance; the percentiles are nearest-rank, as in
/// ``LatencyStatistics``, so each is a latency that was measured.
public struct LatencyHistogram: Hashable, Sendable {
    /// What was timed.
    public enum Measure: String, Hashable, Sendable, CaseIterable {
        /// The accessory's datagrams, from the sender's stamp to arrival at the phone.
        case oneWay = "one-way"
        /// The phone's frames, from queued to acknowledged (Apple's `transmitLatency`).
        case transmit
        /// ICMPv6 echo: from the phone's request to the accessory's reply, as `ping` measures.
        case roundTrip = "round-trip"
    }

    /// Samples up to `upToMilliseconds` (and above the previous bucket's bound); nil is everything
    /// above the last bound.
    public struct Bucket: Hashable, Sendable {
        public var upToMilliseconds: Double?
        public var count: Int

        public init(upToMilliseconds: Double?, count: Int) {
            self.upToMilliseconds = upToMilliseconds
            self.count = count
        }
    }

    /// Bucket bounds in microseconds: 1-2-5 steps from a tenth of a millisecond (a frame on an idle
    /// realtime schedule) to a second (a datagram that waited out several bulk gaps).
    public static let boundsMicroseconds: [Int64] = [
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000,
    ]

    public var accessCategory: AccessCategory
    public var measure: Measure
    public var samples: Int
    public var p50Milliseconds: Double
    public var p99Milliseconds: Double
    public var maximumMilliseconds: Double
    public var buckets: [Bucket]

    public init(
        accessCategory: AccessCategory,
        measure: Measure,
        samples: Int,
        p50Milliseconds: Double,
        p99Milliseconds: Double,
        maximumMilliseconds: Double,
        buckets: [Bucket]
    ) {
        self.accessCategory = accessCategory
        self.measure = measure
        self.samples = samples
        self.p50Milliseconds = p50Milliseconds
        self.p99Milliseconds = p99Milliseconds
        self.maximumMilliseconds = maximumMilliseconds
        self.buckets = buckets
    }

    /// nil for no samples: nothing was measured, which is not a histogram of nothing.
    public init?(accessCategory: AccessCategory, measure: Measure, samples: [Interval]) {
        guard let statistics = LatencyStatistics(samples: samples) else { return nil }
        var counts = Array(repeating: 0, count: Self.boundsMicroseconds.count + 1)
        for sample in samples {
            let index = Self.boundsMicroseconds.firstIndex { sample.nanoseconds <= $0 * 1_000 }
            counts[index ?? Self.boundsMicroseconds.count] += 1
        }
        let bounds = Self.boundsMicroseconds.map { Double($0) / 1_000 } as [Double?] + [nil]
        self.init(
            accessCategory: accessCategory,
            measure: measure,
            samples: statistics.count,
            p50Milliseconds: statistics.p50.milliseconds,
            p99Milliseconds: statistics.p99.milliseconds,
            maximumMilliseconds: statistics.maximum.milliseconds,
            buckets: zip(bounds, counts).map { Bucket(upToMilliseconds: $0, count: $1) }
        )
    }
}
