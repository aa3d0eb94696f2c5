import AwareCore
import AwareRadio
import Foundation
import Testing

/// The schedulers' calendar (`EventScheduler.calendarTime(of:)`): virtual time moves it on the
/// simulated air, the monotonic clock under the wall clock.
@Suite struct SchedulerCalendarTests {
    @Test func theVirtualCalendarMovesWithVirtualTimeFromItsOrigin() {
        let scheduler = VirtualScheduler(calendarOrigin: CalendarTime(unixSeconds: 1_700_000_000))
        #expect(scheduler.calendarNow == CalendarTime(unixSeconds: 1_700_000_000))
        scheduler.run(until: .zero + .seconds(90_061))
        #expect(scheduler.calendarNow.unixSeconds == 1_700_090_061)
        #expect(scheduler.calendarTime(of: Instant(nanoseconds: 1_500_000_000)).unixSeconds == 1_700_000_001)
    }

    @Test func theVirtualCalendarStartsAtTheHostsClockByDefault() {
        let host = Int64(Date().timeIntervalSince1970)
        let scheduler = VirtualScheduler()
        #expect(abs(scheduler.calendarNow.unixSeconds - host) <= 2)
    }

    @Test func theWallClockCalendarIsTheHostsClock() {
        let scheduler = WallClockScheduler()
        defer { scheduler.stop() }
        let host = Int64(Date().timeIntervalSince1970)
        #expect(abs(scheduler.calendarNow.unixSeconds - host) <= 2)
        // An instant an hour on is an hour on the calendar: the monotonic clock drives it.
        let later = scheduler.calendarTime(of: scheduler.now + .seconds(3_600))
        #expect(abs(later.unixSeconds - host - 3_600) <= 2)
    }

    @Test func calendarSecondsRoundDownAndSaturate() {
        #expect(CalendarTime(unixNanoseconds: 1_999_999_999).unixSeconds == 1)
        #expect(CalendarTime(unixNanoseconds: -1).unixSeconds == -1)
        #expect(CalendarTime(unixNanoseconds: -1_000_000_000).unixSeconds == -1)
        #expect(CalendarTime(unixNanoseconds: -1_000_000_001).unixSeconds == -2)
        #expect(CalendarTime(unixSeconds: .max).unixNanoseconds == .max)
        #expect((CalendarTime(unixNanoseconds: .max) + .seconds(1)).unixNanoseconds == .max)
        #expect((CalendarTime(unixNanoseconds: .min) + .seconds(-1)).unixNanoseconds == .min)
    }
}
