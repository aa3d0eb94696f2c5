/// A passive subscriber only listens for unsolicited publishes; an active one also sends
/// Subscribe messages that solicited publishers answer (nan-wire-reference.md 1.5, 2.4).
public enum SubscribeMode: String, Hashable, Sendable, CaseIterable {
    case passive
    case active
}
