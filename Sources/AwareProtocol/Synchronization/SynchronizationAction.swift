import AwareCore
import AwareWire

/// What a ``SynchronizationEngine`` asks its owner to do, in order.
public enum SynchronizationAction: Hashable, Sendable {
    case transmit(TxRequest)
    case arm(SynchronizationTimer, at: Instant)
    case cancel(SynchronizationTimer)
    /// The channels the radio receives on from now on.
    case listen(Set<NANChannel>)
    case notify(SynchronizationNotification)
}
