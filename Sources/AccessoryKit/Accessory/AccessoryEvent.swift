import AwareCore
import AwareProtocol
import AwareWire

/// Something the accessory did or saw, as `accessory-emu` reports it: a line of text for
/// people, or one JSON object per line with an `event` key for scripts (docs/reference/events.md).
public struct AccessoryEvent: Sendable {
    /// The event's name, the value of its `event` key ("ready", "publish_started", ...).
    public var name: String
    /// When it happened on the accessory's clock.
    public var time: Instant
    /// The event's fields, in order.
    public var fields: [(String, JSONValue)]
    /// The line a person reads.
    public var text: String

    public init(name: String, time: Instant, fields: [(String, JSONValue)] = [], text: String) {
        self.name = name
        self.time = time
        self.fields = fields
        self.text = text
    }

    /// `{"event": name, "t": seconds, ...fields}`
    public var json: JSONValue {
        .object([("event", .string(name)), ("t", .double((time.seconds * 1e6).rounded() / 1e6))] + fields)
    }
}
