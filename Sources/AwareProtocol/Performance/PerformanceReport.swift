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

extension PerformanceReport {
    /// The report for machines. Times are milliseconds and rates Mbps, as the key names say;
    /// a value that could not be measured is null, and its key is still there.
    public var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .double($0) } ?? .null }
        func milliseconds(_ value: Interval?) -> JSONValue { number(value?.milliseconds) }
        let transmit = AccessCategory.allCases.compactMap { category in
            transmitLatency[category].map { (category.rawValue, milliseconds($0)) }
        }
        return .object([
            ("signalStrength", number(signalStrength)),
            ("throughputCeilingMbps", number(throughputCeilingMbps)),
            ("throughputCapacityMbps", number(throughputCapacityMbps)),
            ("throughputCapacityRatio", number(throughputCapacityRatio)),
            ("transmitLatencyMs", .object(transmit)),
            (
                "latencyMs",
                .object([
                    ("mean", milliseconds(latency?.mean)),
                    ("p50", milliseconds(latency?.p50)),
                    ("p95", milliseconds(latency?.p95)),
                    ("p99", milliseconds(latency?.p99)),
                ])
            ),
            (
                "latencyRangeMs",
                .object([("min", milliseconds(latency?.minimum)), ("max", milliseconds(latency?.maximum))])
            ),
            ("latencySamples", .integer(Int64(latency?.count ?? 0))),
            ("jitterMs", milliseconds(latency?.jitter)),
            (
                "packets",
                .object([
                    ("offered", .integer(Int64(offeredPackets))),
                    ("delivered", .integer(Int64(deliveredPackets))),
                    ("deliveryRatio", number(deliveryRatio)),
                ])
            ),
            ("throughputMbps", .double(throughputMbps)),
            ("dutyCycle", .double(dutyCycle)),
            (
                "energy",
                .object([
                    ("radioOnSeconds", .double(energy.radioOnSeconds)),
                    ("transmitSeconds", .double(energy.transmitSeconds)),
                    ("joules", .double(energy.joules)),
                    ("listenWatts", .double(energy.model.listenWatts)),
                    ("transmitWatts", .double(energy.model.transmitWatts)),
                ])
            ),
        ])
    }
}

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

/// Radio energy over a run: on-time is the run's duration times the schedule's duty cycle;
/// of that, transmit time is the octets sent at the PHY rate (payload airtime only: preambles
/// and acknowledgements are left out, so this is a lower bound), and the rest is listening.
public struct EnergyEstimate: Hashable, Sendable {
    public var radioOnSeconds: Double
    public var transmitSeconds: Double
    public var joules: Double
    public var model: RadioPowerModel

    public init(
        durationSeconds: Double,
        dutyCycle: Double,
        transmittedBytes: UInt64,
        phyRateMbps: Double?,
        model: RadioPowerModel
    ) {
        let onTime = max(0, durationSeconds) * min(max(dutyCycle, 0), 1)
        let airtime = phyRateMbps.map { $0 > 0 ? Double(transmittedBytes) * 8 / ($0 * 1e6) : 0 } ?? 0
        radioOnSeconds = onTime
        transmitSeconds = min(airtime, onTime)
        joules = transmitSeconds * model.transmitWatts + (onTime - transmitSeconds) * model.listenWatts
        self.model = model
    }
}

/// How much power the radio draws while listening and while transmitting, for energy estimates.
///
/// The default is a small Wi-Fi module's datasheet, because the accessories this bench emulates
/// are of that kind: ESP32-S2-WROOM datasheet v1.1, Table 7 "Current Consumption Depending on RF
/// Modes", 3.3 V supply: RX 802.11b/g/n 20 MHz 63 mA; TX 802.11g 54 Mbps at 15 dBm 145 mA
/// (average). Listening for a frame costs the same as receiving one (the receive chain is on
/// either way), and the radio draws nothing while the schedule has it off: sleep currents are
/// microamps and the CPU is not the radio's to count.
public struct RadioPowerModel: Hashable, Sendable {
    public var supplyVolts: Double
    public var listenMilliamps: Double
    public var transmitMilliamps: Double

    public init(supplyVolts: Double, listenMilliamps: Double, transmitMilliamps: Double) {
        self.supplyVolts = supplyVolts
        self.listenMilliamps = listenMilliamps
        self.transmitMilliamps = transmitMilliamps
    }

    /// ESP32-S2-WROOM datasheet v1.1, Table 7.
    public static let esp32S2 = RadioPowerModel(supplyVolts: 3.3, listenMilliamps: 63, transmitMilliamps: 145)

    public var listenWatts: Double { supplyVolts * listenMilliamps / 1000 }
    public var transmitWatts: Double { supplyVolts * transmitMilliamps / 1000 }
}
