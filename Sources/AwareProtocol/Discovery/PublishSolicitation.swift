/// Which Publish messages a service sends (nan-wire-reference.md 2.4): unsolicited ones on its
/// own, solicited ones as unicast replies to matching active subscribes, or both.
public enum PublishSolicitation: String, Hashable, Sendable, CaseIterable {
    case unsolicited
    case solicited
    case both

    public var sendsUnsolicited: Bool { self != .solicited }
    public var answersSubscribes: Bool { self != .unsolicited }
}
