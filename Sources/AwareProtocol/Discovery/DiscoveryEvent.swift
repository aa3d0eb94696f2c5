import AwareCore
import AwareWire

/// What happens to a ``DiscoveryEngine``.
public enum DiscoveryEvent: Hashable, Sendable {
    case command(DiscoveryCommand)
    case received(ReceivedFrame)
    case timerFired(DiscoveryTimer)
    case transmitted(TxStatus)
    /// Synchronized mode: a window opened (from ``SynchronizationNotification/discoveryWindowStarted(_:)``).
    case discoveryWindowStarted(DiscoveryWindow)
    case discoveryWindowEnded(DiscoveryWindow)
    /// The radio can no longer send or receive: every instance ends with reason ``TerminationReason/failure``.
    case radioFailed
}
