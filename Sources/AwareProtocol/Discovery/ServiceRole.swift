/// Whether a local instance publishes or subscribes.
public enum ServiceRole: String, Hashable, Sendable {
    case publish
    case subscribe
}
