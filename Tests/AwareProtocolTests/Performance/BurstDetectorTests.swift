import AwareCore
import AwareProtocol
import AwareWire
import Testing

/// Synthetic arrivals of a 50 packet/s stream (one packet generated every 20 ms for 10 s).
@Suite struct BurstDetectorTests {
    private let detector = BurstDetector(packetsPerSecond: 50)
    private let generated = (0..<500).map { Instant.zero + .milliseconds(Int64($0) * 20) }
    private let spacing = Interval.microseconds(300)

    /// Delivered as generated, give or take a deterministic 0-3 ms of jitter.
    @Test func aSteadyStreamIsOneBurst() {
        let arrivals = generated.enumerated().map { $1 + .microseconds(Int64($0 * 7_919 % 3_000)) }
        let analysis = detector.analyze(arrivals)
        #expect(analysis.burstCount == 1)
        #expect(analysis.meanBurstSize == 500)
        #expect(!analysis.isDiscoveryWindowBursting)
    }

    /// Delivered only at the start of each discovery window (every 524.288 ms), back to back:
    /// esp-idf #19066's ~26 packets every ~515 ms.
    @Test func aStreamDeliveredOnlyInDiscoveryWindowsIsFlagged() {
        let period = DiscoveryWindowTiming.period
        var arrivals: [Instant] = []
        var queuedInWindow: [Int64: Int] = [:]
        for packet in generated {
            let window = Int64(packet.nanoseconds) / period.nanoseconds + 1
            let position = queuedInWindow[window, default: 0]
            queuedInWindow[window] = position + 1
            arrivals.append(Instant.zero + period * window + spacing * Int64(position))
        }
        let analysis = detector.analyze(arrivals)
        #expect(analysis.burstCount == 20)
        #expect(analysis.meanBurstSize == 25)
        #expect(analysis.meanBurstPeriod == period)
        #expect(analysis.isDiscoveryWindowBursting)
    }

    /// The bulk schedule (PerformanceMode.bulk: slots 1-2, 9-10, 17-18, 25-26 of 16 TU): a packet
    /// generated while the data channel is available goes at once; otherwise it waits for the next
    /// available slot. Bursts come every 128 TU (131 ms), a quarter of the DW period: not flagged.
    @Test func theBulkScheduleBunchesButIsNotDiscoveryWindowBursting() throws {
        let slot = Interval.timeUnits(16).nanoseconds
        let available = Set(PerformanceMode.bulk.availableSlots)
        var arrivals: [Instant] = []
        var queuedAtSlot: [Int64: Int] = [:]
        for packet in generated {
            let time = Int64(packet.nanoseconds)
            if available.contains(Int(time / slot % 32)) {
                arrivals.append(packet)
                continue
            }
            var next = time / slot + 1
            while !available.contains(Int(next % 32)) { next += 1 }
            let position = queuedAtSlot[next, default: 0]
            queuedAtSlot[next] = position + 1
            arrivals.append(Instant.zero + Interval(nanoseconds: next * slot) + spacing * Int64(position))
        }
        let analysis = detector.analyze(arrivals)
        #expect(analysis.burstCount > 40)
        let period = try #require(analysis.meanBurstPeriod)
        #expect(abs(period.milliseconds - 131.072) < 5)
        #expect(!analysis.isDiscoveryWindowBursting)
    }

    /// Two outages make three bursts starting at 0, 200 and 1040 ms: their mean period, 520 ms,
    /// is within 10 % of 512 TU, but neither period is, so this is loss, not DW bursting.
    @Test func irregularOutagesAreNotFlagged() throws {
        let kept = generated.enumerated().filter {
            (0..<5).contains($0.offset) || (10..<45).contains($0.offset) || (52..<60).contains($0.offset)
        }
        let analysis = detector.analyze(kept.map(\.element))
        #expect(analysis.burstSizes == [5, 35, 8])
        #expect(analysis.meanBurstPeriod == .milliseconds(520))
        #expect(!analysis.isDiscoveryWindowBursting)
    }
}
