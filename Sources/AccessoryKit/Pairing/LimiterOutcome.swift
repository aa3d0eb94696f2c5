import AwareCore
import AwareWire

/// What a wrong PIN leads to.
public enum LimiterOutcome: Hashable, Sendable {
    /// Pairing stays open for `remaining` more wrong PINs before a lockout.
    case allowed(remaining: Int)
    /// Pairing is refused until `until`, `duration` after the wrong PIN that locked it.
    case lockedOut(until: Instant, duration: Interval)
}
