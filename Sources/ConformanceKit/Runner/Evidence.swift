import AwareCore
import AwareWire

/// One line of `events.jsonl` (docs/reference/reports.md, "events.jsonl"): `t` (seconds on the test's clock),
/// `event` (what happened), then the event's own keys in sorted order.
public struct EventLine: Hashable, Sendable {
    /// Keys every line starts with; an event's own fields may not use them.
    public static let reservedKeys: Set<String> = ["t", "event"]

    public var time: Instant
    public var event: String
    public var fields: [String: JSONValue]

    public init(time: Instant, event: String, fields: [String: JSONValue] = [:]) {
        self.time = time
        self.event = event
        self.fields = fields.filter { !Self.reservedKeys.contains($0.key) }
    }

    /// `{"t":1.024,"event":"discovery-result","service":"_drone-service._udp"}`
    public var json: String {
        let members =
            [("event", JSONValue.string(event))] + fields.keys.sorted().map { ($0, fields[$0, default: .null]) }
        // `t` goes first, spelled as an exact decimal rather than through Double.
        return "{\"t\":" + Self.seconds(time) + "," + JSONValue.object(members).serialized.dropFirst()
    }

    /// Exact decimal seconds from nanoseconds, trailing zeros dropped: 0, 1.5, 0.524288.
    static func seconds(_ time: Instant) -> String {
        let whole = time.nanoseconds / 1_000_000_000
        let fraction = time.nanoseconds % 1_000_000_000
        guard fraction > 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
