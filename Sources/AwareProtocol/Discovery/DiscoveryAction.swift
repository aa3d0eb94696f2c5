import AwareCore
import AwareWire

/// What a ``DiscoveryEngine`` asks its owner to do, in order.
public enum DiscoveryAction: Hashable, Sendable {
    case transmit(TxRequest)
    case arm(DiscoveryTimer, at: Instant)
    case cancel(DiscoveryTimer)
    /// USD: the channels to receive on (synchronized mode leaves this to the synchronization engine).
    case listen(Set<NANChannel>)
    case notify(DiscoveryNotification)
}
