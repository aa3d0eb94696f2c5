import AwareCore
import AwareWire

/// Summary of one-way latencies, in the order the packets arrived.
///
/// Percentiles are nearest-rank: the p-th percentile of N sorted samples is the sample at rank
/// ceil(p/100 x N) (1-based), so it is always a latency that was measured, never interpolated.
///
/// Jitter is the mean absolute difference of consecutive latencies: D(i-1, i) of RFC 3550 6.4.1
/// is exactly L(i) - L(i-1) for one-way latencies, and this takes their plain mean over the
/// run (the "mean absolute IPDV" of RFC 5481 between consecutive packets). The RFC 3550 running
/// estimate, which smooths |D| with gain 1/16, is also given as ``interarrivalJitter``; it
/// depends on where in the run the estimate is read, so reports use the mean.
public struct LatencyStatistics: Hashable, Sendable {
    public let count: Int
    /// Rounded to the nearest nanosecond.
    public let mean: Interval
    public let minimum: Interval
    public let maximum: Interval
    public let p50: Interval
    public let p95: Interval
    public let p99: Interval
    /// Mean |L(i) - L(i-1)|; zero for a single sample.
    public let jitter: Interval
    /// RFC 3550 6.4.1: J(i) = J(i-1) + (|D(i-1, i)| - J(i-1)) / 16, from J = 0, after the last sample.
    public let interarrivalJitter: Interval

    /// nil for no samples: an empty run has no latency, not a latency of zero.
    public init?(samples: [Interval]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = samples.count
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        let total = samples.reduce(0.0) { $0 + Double($1.nanoseconds) }
        mean = Interval(nanoseconds: Int64((total / Double(samples.count)).rounded()))
        p50 = Self.percentile(50, ofSorted: sorted)
        p95 = Self.percentile(95, ofSorted: sorted)
        p99 = Self.percentile(99, ofSorted: sorted)
        var differences = 0.0
        var smoothed = 0.0
        for (previous, next) in zip(samples, samples.dropFirst()) {
            let difference = abs(Double(next.nanoseconds) - Double(previous.nanoseconds))
            differences += difference
            smoothed += (difference - smoothed) / 16
        }
        jitter = Interval(
            nanoseconds: samples.count > 1 ? Int64((differences / Double(samples.count - 1)).rounded()) : 0
        )
        interarrivalJitter = Interval(nanoseconds: Int64(smoothed.rounded()))
    }

    /// The nearest-rank `percent`-th percentile (1...100) of samples sorted ascending.
    public static func percentile(_ percent: Int, ofSorted sorted: [Interval]) -> Interval {
        precondition(!sorted.isEmpty && (1...100).contains(percent), "a percentile of something, 1...100")
        let rank = (percent * sorted.count + 99) / 100
        return sorted[max(1, rank) - 1]
    }
}
