import Foundation

/// A point in time, in nanoseconds from an origin the caller chooses: the start of a
/// simulation under virtual time, or process start under the wall clock. Protocol machines
/// never read a clock; they are handed an `Instant` with every event.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    public static let zero = Instant(nanoseconds: 0)

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// Adding a negative interval past the origin stops at the origin.
    public static func + (lhs: Instant, rhs: Interval) -> Instant {
        if rhs.nanoseconds >= 0 {
            return Instant(nanoseconds: lhs.nanoseconds &+ UInt64(rhs.nanoseconds))
        }
        let back = rhs.nanoseconds.magnitude
        return Instant(nanoseconds: lhs.nanoseconds > back ? lhs.nanoseconds - back : 0)
    }

    public static func - (lhs: Instant, rhs: Instant) -> Interval {
        lhs >= rhs
            ? Interval(nanoseconds: Int64(clamping: lhs.nanoseconds - rhs.nanoseconds))
            : Interval(nanoseconds: -Int64(clamping: rhs.nanoseconds - lhs.nanoseconds))
    }

    /// Seconds since the origin, for people and reports.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public var description: String { String(format: "%.6f s", seconds) }
}

extension Instant {
    /// Time in TU (1024 µs) since the origin, rounded down: how NAN counts (nan-wire-reference.md, Conventions).
    public var timeUnits: UInt64 { nanoseconds / Interval.nanosecondsPerTU }
}
