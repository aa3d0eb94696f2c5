import AwareCore
import AwareWire

/// Finds discovery-window bursting in a nominally periodic stream: the defect of esp-idf #19066,
/// where a 50 packet/s stream over an NDP arrived as about 26 packets every ~515 ms, i.e. only in
/// the discovery windows (512 TU = 524.288 ms, nan-wire-reference.md 1.4).
///
/// Arrivals separated by a gap longer than `gapFactor` x the nominal interval start a new burst.
/// Bunching alone is not the defect: the bulk schedule (``PerformanceMode/bulk``) is available
/// in 4 blocks per 512 TU, so a stream under it also arrives in bursts, but every 128 TU. What
/// separates the two is the burst period: the stream is flagged only when there are at least
/// `minimumBursts` bursts, the mean period between burst starts is within `tolerance` of
/// 512 TU, and at least three quarters of the individual periods are too (so that a few long
/// loss gaps that happen to average to half a second do not count).
public struct BurstDetector: Hashable, Sendable {
    public var nominalInterval: Interval
    public var gapFactor: Double
    public var period: Interval
    public var tolerance: Double
    public var minimumBursts: Int

    public init(
        nominalInterval: Interval,
        gapFactor: Double = 3,
        period: Interval = DiscoveryWindowTiming.period,
        tolerance: Double = 0.10,
        minimumBursts: Int = 3
    ) {
        self.nominalInterval = nominalInterval
        self.gapFactor = gapFactor
        self.period = period
        self.tolerance = tolerance
        self.minimumBursts = minimumBursts
    }

    /// A stream of `packetsPerSecond`.
    public init(packetsPerSecond: Double) {
        self.init(nominalInterval: .seconds(1 / packetsPerSecond))
    }

    public func analyze(_ arrivals: [Instant]) -> BurstAnalysis {
        let sorted = arrivals.sorted()
        let threshold = Double(nominalInterval.nanoseconds) * gapFactor
        var starts: [Instant] = []
        var sizes: [Int] = []
        var previous: Instant?
        for arrival in sorted {
            if let previous, Double((arrival - previous).nanoseconds) <= threshold {
                sizes[sizes.count - 1] += 1
            } else {
                starts.append(arrival)
                sizes.append(1)
            }
            previous = arrival
        }
        let periods = zip(starts, starts.dropFirst()).map { $1 - $0 }
        let meanPeriod =
            periods.isEmpty
            ? nil
            : Interval(nanoseconds: periods.reduce(Int64(0)) { $0 + $1.nanoseconds } / Int64(periods.count))
        let isBursting: Bool
        if let meanPeriod, sizes.count >= minimumBursts {
            let near = periods.filter(isNearPeriod).count
            isBursting = isNearPeriod(meanPeriod) && near * 4 >= periods.count * 3
        } else {
            isBursting = false
        }
        return BurstAnalysis(burstSizes: sizes, meanBurstPeriod: meanPeriod, isDiscoveryWindowBursting: isBursting)
    }

    private func isNearPeriod(_ interval: Interval) -> Bool {
        abs(Double(interval.nanoseconds) - Double(period.nanoseconds)) <= Double(period.nanoseconds) * tolerance
    }
}

/// What a ``BurstDetector`` found.
public struct BurstAnalysis: Hashable, Sendable {
    /// Packets in each burst, in order.
    public var burstSizes: [Int]
    /// Mean time from one burst's first arrival to the next one's; nil with fewer than two bursts.
    public var meanBurstPeriod: Interval?
    /// Bursts recur at the discovery-window interval (esp-idf #19066).
    public var isDiscoveryWindowBursting: Bool

    public init(burstSizes: [Int], meanBurstPeriod: Interval?, isDiscoveryWindowBursting: Bool) {
        self.burstSizes = burstSizes
        self.meanBurstPeriod = meanBurstPeriod
        self.isDiscoveryWindowBursting = isDiscoveryWindowBursting
    }

    public var burstCount: Int { burstSizes.count }

    public var meanBurstSize: Double {
        burstSizes.isEmpty ? 0 : Double(burstSizes.reduce(0, +)) / Double(burstSizes.count)
    }
}
