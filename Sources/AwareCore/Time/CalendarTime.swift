/// A point on the calendar: nanoseconds since 1970-01-01 00:00:00 UTC (Unix time), as a
/// scheduler reports it (`EventScheduler.calendarTime(of:)` in AwareRadio).
///
/// ``Instant`` is monotonic and counts from an origin that means nothing outside the run;
/// whatever outlives a run is calendar time: when a pairing was made (`pairedAt` in
/// `pairings.json`), whether a cached NIK has outlived the lifetime its Key Lifetime KDE gave it
/// (nan-wire-reference.md 3.6). Under virtual time the calendar advances with the virtual
/// clock, so a lifetime expires after simulated hours as it would after real ones.
public struct CalendarTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var unixNanoseconds: Int64

    public init(unixNanoseconds: Int64) {
        self.unixNanoseconds = unixNanoseconds
    }

    public init(unixSeconds: Int64) {
        unixNanoseconds =
            unixSeconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? (unixSeconds < 0 ? .min : .max) : unixSeconds * 1_000_000_000
    }

    /// Whole seconds since 1970, rounded down: what `pairings.json` stores.
    public var unixSeconds: Int64 {
        unixNanoseconds >= 0
            ? unixNanoseconds / 1_000_000_000 : -((-(unixNanoseconds + 1)) / 1_000_000_000) - 1
    }

    public static func < (lhs: CalendarTime, rhs: CalendarTime) -> Bool { lhs.unixNanoseconds < rhs.unixNanoseconds }

    /// The calendar time `interval` later (earlier when negative); saturates at the ends.
    public static func + (lhs: CalendarTime, rhs: Interval) -> CalendarTime {
        let (sum, overflow) = lhs.unixNanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return CalendarTime(unixNanoseconds: overflow ? (rhs.nanoseconds < 0 ? .min : .max) : sum)
    }

    public var description: String { "\(unixSeconds) s since 1970 (UTC)" }
}
