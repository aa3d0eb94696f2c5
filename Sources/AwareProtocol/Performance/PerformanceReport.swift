import AwareCore
import AwareWire

/// The bench's performance report: Apple's `WAPerformanceReport` fields (apple-peer-model.md 1.8)
/// computed from a ``PerformanceMeasurement``, plus what a conformance run needs to judge a mode.
///
/// - `signalStrength`: RSSI mapped linearly, -90 dBm -> 0 and -30 dBm -> 1, clamped. Apple only
///   documents the 0...1 range; -90 dBm is about where 6 Mbps OFDM stops decoding and -30 dBm is
///   a device at arm's length.
/// - `throughputCeilingMbps`: the link's PHY rate ("the highest throughput ... under ideal
///   conditions, given the hardware capabilities of both devices").
/// - `throughputCapacityMbps`: ceiling x duty cycle x MAC efficiency. The efficiency is what is
///   left of the PHY rate after contention, preambles, acknowledgements and headers; the default
///   0.6 is an assumption, typical of OFDM without aggregation at high rates (UDP goodput of
///   802.11a/g at 54 Mbps is about 30 Mbps).
/// - `transmitLatency`: the average per access category, only for categories in use (Apple:
///   "only reports in-use and measurable access categories").
public struct PerformanceReport: Hashable, Sendable {
    public static let defaultMACEfficiency = 0.6

    public var signalStrength: Double?
    public var throughputCeilingMbps: Double?
    public var throughputCapacityMbps: Double?
    public var transmitLatency: [AccessCategory: Interval]
    public var latency: LatencyStatistics?
    public var offeredPackets: Int
    public var deliveredPackets: Int
    /// Delivered payload octets x 8 over the duration.
    public var throughputMbps: Double
    public var dutyCycle: Double
    public var energy: EnergyEstimate

    public init(
        _ measurement: PerformanceMeasurement,
        macEfficiency: Double = defaultMACEfficiency,
        power: RadioPowerModel = .esp32S2
    ) {
        signalStrength = measurement.rssiDBm.map(Self.signalStrength(rssiDBm:))
        throughputCeilingMbps = measurement.phyRateMbps
        throughputCapacityMbps = measurement.phyRateMbps.map { $0 * measurement.dutyCycle * macEfficiency }
        transmitLatency = measurement.transmitLatencies.compactMapValues { LatencyStatistics(samples: $0)?.mean }
        latency = LatencyStatistics(samples: measurement.latencies)
        offeredPackets = measurement.offeredPackets
        deliveredPackets = measurement.deliveredPackets
        let seconds = measurement.duration.seconds
        throughputMbps = seconds > 0 ? Double(measurement.deliveredBytes) * 8 / seconds / 1e6 : 0
        dutyCycle = measurement.dutyCycle
        energy = EnergyEstimate(
            durationSeconds: seconds,
            dutyCycle: measurement.dutyCycle,
            transmittedBytes: measurement.transmittedBytes,
            phyRateMbps: measurement.phyRateMbps,
            model: power
        )
    }

    /// -90 dBm -> 0, -30 dBm -> 1, linear in dBm, clamped to 0...1.
    public static func signalStrength(rssiDBm: Int) -> Double {
        min(max(Double(rssiDBm + 90) / 60, 0), 1)
    }

    /// Capacity over ceiling (Apple's `throughputCapacityRatio`), 0...1.
    public var throughputCapacityRatio: Double? {
        guard let ceiling = throughputCeilingMbps, let capacity = throughputCapacityMbps, ceiling > 0 else {
            return nil
        }
        return min(max(capacity / ceiling, 0), 1)
    }

    /// Delivered over offered packets; nil when nothing was offered.
    public var deliveryRatio: Double? {
        offeredPackets > 0 ? Double(deliveredPackets) / Double(offeredPackets) : nil
    }
}
