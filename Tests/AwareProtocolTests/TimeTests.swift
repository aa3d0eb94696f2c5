import AwareCore
import AwareWire
import Testing

@Suite struct TimeTests {
    @Test func timeUnitsAre1024Microseconds() {
        #expect(Interval.timeUnits(512).nanoseconds == 524_288_000)
        #expect(Instant(nanoseconds: 524_288_000).timeUnits == 512)
    }

    @Test func instantArithmeticSaturatesAtTheOrigin() {
        let t = Instant(nanoseconds: 1_000)
        #expect(t + .microseconds(-5) == .zero)
        #expect((t + .microseconds(2)) - t == .microseconds(2))
        #expect(t - (t + .microseconds(2)) == .microseconds(-2))
    }

    @Test func discoveryWindowsFollowTheReference() {
        // Channel 6: windows start at TSF multiples of 524288 µs and last 16384 µs.
        #expect(DiscoveryWindowTiming.nextWindowStart(atOrAfter: 0, on: .channel6) == 0)
        #expect(DiscoveryWindowTiming.nextWindowStart(atOrAfter: 1, on: .channel6) == 524_288)
        #expect(DiscoveryWindowTiming.nextWindowStart(atOrAfter: 524_288, on: .channel6) == 524_288)
        #expect(DiscoveryWindowTiming.isInWindow(16_383, on: .channel6))
        #expect(!DiscoveryWindowTiming.isInWindow(16_384, on: .channel6))
        // Channel 149: 128 TU = 131072 µs later.
        #expect(DiscoveryWindowTiming.nextWindowStart(atOrAfter: 0, on: .channel149) == 131_072)
        #expect(DiscoveryWindowTiming.nextWindowStart(atOrAfter: 131_073, on: .channel149) == 655_360)
        #expect(DiscoveryWindowTiming.isInWindow(131_072, on: .channel149))
        #expect(!DiscoveryWindowTiming.isInWindow(0, on: .channel149))
    }
}
