import AwareCore
import AwareWire

/// Whether a pairing attempt may start now.
public enum LimiterCheck: Hashable, Sendable {
    case allowed
    case lockedOut(until: Instant)
}
