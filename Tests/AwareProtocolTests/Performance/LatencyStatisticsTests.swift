import AwareCore
import AwareProtocol
import AwareWire
import Testing

@Suite struct LatencyStatisticsTests {
    private func ms(_ values: [Int64]) -> [Interval] { values.map { .milliseconds($0) } }

    /// Arrival order 30, 10, 20, 50, 40 ms; sorted 10..50. Mean 30. Nearest rank: p50 = rank
    /// ceil(2.5) = 3 -> 30; p95 = rank ceil(4.75) = 5 -> 50; p99 -> 50. Consecutive differences
    /// 20, 10, 30, 10: jitter 70 / 4 = 17.5 ms. RFC 3550: J = 20/16 = 1.25; + (10 - 1.25)/16 =
    /// 1.796875; + (30 - 1.796875)/16 = 3.5595703125; + (10 - 3.5595703125)/16 = 3.96209716796875 ms.
    @Test func fiveSamplesByHand() throws {
        let statistics = try #require(LatencyStatistics(samples: ms([30, 10, 20, 50, 40])))
        #expect(statistics.count == 5)
        #expect(statistics.mean == .milliseconds(30))
        #expect(statistics.minimum == .milliseconds(10) && statistics.maximum == .milliseconds(50))
        #expect(statistics.p50 == .milliseconds(30))
        #expect(statistics.p95 == .milliseconds(50))
        #expect(statistics.p99 == .milliseconds(50))
        #expect(statistics.jitter == .microseconds(17_500))
        #expect(statistics.interarrivalJitter == Interval(nanoseconds: 3_962_097))
    }

    /// 1...100 ms: rank ceil(p/100 x 100) = p, so each percentile is p ms.
    @Test func hundredSamples() throws {
        let statistics = try #require(LatencyStatistics(samples: ms(Array((1...100).reversed()))))
        #expect(statistics.p50 == .milliseconds(50))
        #expect(statistics.p95 == .milliseconds(95))
        #expect(statistics.p99 == .milliseconds(99))
        #expect(statistics.mean == .microseconds(50_500))
        #expect(statistics.jitter == .milliseconds(1))
    }

    /// Three samples: p50 = rank ceil(1.5) = 2; p95 and p99 = rank 3. Mean 20/3 ms rounds to 6666667 ns.
    @Test func nearestRankNeverInterpolates() throws {
        let statistics = try #require(LatencyStatistics(samples: ms([1, 9, 10])))
        #expect(statistics.p50 == .milliseconds(9))
        #expect(statistics.p95 == .milliseconds(10))
        #expect(statistics.mean == Interval(nanoseconds: 6_666_667))
    }

    @Test func oneSampleHasNoJitterAndNoSamplesNoStatistics() throws {
        let one = try #require(LatencyStatistics(samples: ms([7])))
        #expect(one.jitter == .zero && one.p99 == .milliseconds(7))
        #expect(LatencyStatistics(samples: []) == nil)
    }
}
