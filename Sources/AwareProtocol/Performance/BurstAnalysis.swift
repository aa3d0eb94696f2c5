import AwareCore
import AwareWire

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
