import AwareCore
import AwareWire

/// What a run measured, from which a ``PerformanceReport`` is computed.
public struct PerformanceMeasurement: Hashable, Sendable {
    /// Of the peer's frames; nil when nothing was received to measure.
    public var rssiDBm: Int?
    /// The link's PHY rate (the rate both ends' hardware supports); nil if unknown.
    public var phyRateMbps: Double?
    /// Share of time the data radio is available (``PerformanceMode/dutyCycle``).
    public var dutyCycle: Double
    /// From the first packet offered to the end of the measurement.
    public var duration: Interval
    /// One-way latencies of the delivered packets, in arrival order.
    public var latencies: [Interval]
    /// Per access category in use: the time from handing a frame to the MAC to its transmission.
    public var transmitLatencies: [AccessCategory: [Interval]]
    public var offeredPackets: Int
    public var deliveredPackets: Int
    /// Application payload octets delivered (what throughput counts).
    public var deliveredBytes: UInt64
    /// Octets this end put on the air (what transmit energy counts).
    public var transmittedBytes: UInt64

    public init(
        rssiDBm: Int? = nil,
        phyRateMbps: Double? = nil,
        dutyCycle: Double,
        duration: Interval,
        latencies: [Interval] = [],
        transmitLatencies: [AccessCategory: [Interval]] = [:],
        offeredPackets: Int = 0,
        deliveredPackets: Int = 0,
        deliveredBytes: UInt64 = 0,
        transmittedBytes: UInt64 = 0
    ) {
        self.rssiDBm = rssiDBm
        self.phyRateMbps = phyRateMbps
        self.dutyCycle = dutyCycle
        self.duration = duration
        self.latencies = latencies
        self.transmitLatencies = transmitLatencies
        self.offeredPackets = offeredPackets
        self.deliveredPackets = deliveredPackets
        self.deliveredBytes = deliveredBytes
        self.transmittedBytes = transmittedBytes
    }
}
