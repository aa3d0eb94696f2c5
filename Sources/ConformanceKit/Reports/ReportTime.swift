import Foundation

/// Times as the reports write them.
enum ReportTime {
    /// RFC 3339 / ISO 8601 in UTC with milliseconds: `2026-05-12T14:15:03.123Z` (JSON report).
    static func iso8601(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'") }

    /// `2026-05-12T14:15:03`, UTC without a zone: the form Ant's JUnit task writes and CI servers read.
    static func junitTimestamp(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ss") }

    /// Seconds with millisecond precision, no exponent: `0.012` (JUnit `time`).
    static func junitSeconds(_ value: Double) -> String { String(format: "%.3f", max(0, value)) }

    /// Seconds rounded to microseconds (JSON report durations).
    static func seconds(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    private static func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
