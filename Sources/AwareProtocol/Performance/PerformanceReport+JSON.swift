import AwareCore
import AwareWire

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
