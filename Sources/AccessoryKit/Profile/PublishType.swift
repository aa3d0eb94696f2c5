/// How a service is published (nan-wire-reference.md 1: solicited publishes answer subscribes,
/// unsolicited ones are sent on their own).
public enum PublishType: String, Codable, Hashable, Sendable, CaseIterable {
    case unsolicited
    case solicited
    case both

    public var sendsUnsolicited: Bool { self != .solicited }
    public var answersSubscribes: Bool { self != .unsolicited }
}
