import AwareProtocol
import AwareWire
import Testing

@Suite struct PerformanceReportTests {
    @Test func signalStrengthIsLinearFromMinus90ToMinus30() {
        #expect(PerformanceReport.signalStrength(rssiDBm: -90) == 0)
        #expect(PerformanceReport.signalStrength(rssiDBm: -60) == 0.5)
        #expect(PerformanceReport.signalStrength(rssiDBm: -45) == 0.75)
        #expect(PerformanceReport.signalStrength(rssiDBm: -30) == 1)
        #expect(PerformanceReport.signalStrength(rssiDBm: -100) == 0)
        #expect(PerformanceReport.signalStrength(rssiDBm: -10) == 1)
    }

    /// 54 Mbps PHY, bulk (duty 0.25), efficiency 0.6: capacity 54 x 0.25 x 0.6 = 8.1 Mbps, ratio
    /// 0.15. 1,250,000 octets in 10 s = 1 Mbps. Radio on 2.5 s; 6,750,000 octets at 54 Mbps = 1 s
    /// of transmission: 1 s x 3.3 V x 145 mA + 1.5 s x 3.3 V x 63 mA = 0.4785 + 0.31185 = 0.79035 J.
    private var measurement: PerformanceMeasurement {
        PerformanceMeasurement(
            rssiDBm: -60,
            phyRateMbps: 54,
            dutyCycle: PerformanceMode.bulk.dutyCycle,
            duration: .seconds(10),
            latencies: [30, 10, 20, 50, 40].map { .milliseconds($0) },
            transmitLatencies: [.voice: [.milliseconds(2), .milliseconds(4)], .background: []],
            offeredPackets: 500,
            deliveredPackets: 450,
            deliveredBytes: 1_250_000,
            transmittedBytes: 6_750_000
        )
    }

    private func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    @Test func reportFieldsByHand() {
        let report = PerformanceReport(measurement)
        #expect(report.signalStrength == 0.5)
        #expect(report.throughputCeilingMbps == 54)
        #expect(close(report.throughputCapacityMbps, 8.1))
        #expect(close(report.throughputCapacityRatio, 0.15))
        #expect(close(report.throughputMbps, 1))
        #expect(report.deliveryRatio == 0.9)
        // Only categories with measurements: background had none.
        #expect(report.transmitLatency == [.voice: .milliseconds(3)])
        #expect(close(report.energy.radioOnSeconds, 2.5))
        #expect(close(report.energy.transmitSeconds, 1))
        #expect(close(report.energy.joules, 0.79035))
    }

    @Test func jsonHasTheKeysAConsumerReadsByName() {
        let text = PerformanceReport(measurement).json.serialized
        #expect(text.contains(#""latencyMs":{"mean":30.0,"p50":30.0,"p95":50.0,"p99":50.0}"#))
        #expect(text.contains(#""throughputMbps":1.0"#))
        #expect(text.contains(#""dutyCycle":0.25"#))
        #expect(text.contains(#""transmitLatencyMs":{"AC_VO":3.0}"#))
        #expect(text.contains(#""jitterMs":17.5"#))
        #expect(text.contains(#""packets":{"offered":500,"delivered":450,"deliveryRatio":0.9}"#))
        #expect(text.hasPrefix(#"{"signalStrength":0.5,"throughputCeilingMbps":54.0,"#))
    }

    @Test func unmeasuredValuesAreNull() {
        let report = PerformanceReport(PerformanceMeasurement(dutyCycle: 1, duration: .zero))
        let text = report.json.serialized
        #expect(text.contains(#""signalStrength":null"#))
        #expect(text.contains(#""throughputCapacityRatio":null"#))
        #expect(text.contains(#""latencyMs":{"mean":null,"p50":null,"p95":null,"p99":null}"#))
        #expect(text.contains(#""throughputMbps":0.0"#))
        #expect(report.energy.joules == 0)
    }
}
