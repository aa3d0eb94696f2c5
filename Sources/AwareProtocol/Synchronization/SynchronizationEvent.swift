/// What happens to a ``SynchronizationEngine``.
public enum SynchronizationEvent: Hashable, Sendable {
    /// Begin scanning for a cluster.
    case start
    /// Leave the cluster and stop every timer.
    case stop
    case received(ReceivedFrame)
    case timerFired(SynchronizationTimer)
}
