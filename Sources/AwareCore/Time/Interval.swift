import Foundation

/// A span of time in nanoseconds; negative spans are allowed for differences.
public struct Interval: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// 1 TU = 1024 µs (nan-wire-reference.md, Conventions).
    public static let nanosecondsPerTU: UInt64 = 1_024_000

    public static let zero = Interval(nanoseconds: 0)

    public static func timeUnits(_ count: Int64) -> Interval { Interval(nanoseconds: count &* 1_024_000) }
    public static func microseconds(_ count: Int64) -> Interval { Interval(nanoseconds: count &* 1_000) }
    public static func milliseconds(_ count: Int64) -> Interval { Interval(nanoseconds: count &* 1_000_000) }
    public static func seconds(_ count: Int64) -> Interval { Interval(nanoseconds: count &* 1_000_000_000) }
    @_disfavoredOverload
    public static func seconds(_ count: Double) -> Interval { Interval(nanoseconds: Int64(count * 1e9)) }

    public static func < (lhs: Interval, rhs: Interval) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: Interval, rhs: Interval) -> Interval {
        Interval(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }
    public static func - (lhs: Interval, rhs: Interval) -> Interval {
        Interval(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }
    public static func * (lhs: Interval, rhs: Int64) -> Interval { Interval(nanoseconds: lhs.nanoseconds &* rhs) }

    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    public var description: String { String(format: "%.6f s", seconds) }
}
