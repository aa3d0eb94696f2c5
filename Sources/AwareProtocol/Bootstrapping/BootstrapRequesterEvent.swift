/// What happens to a ``BootstrapRequester``.
public enum BootstrapRequesterEvent: Hashable, Sendable {
    /// Start bootstrapping; a bootstrapping already under way is abandoned silently.
    case start(BootstrapTarget)
    /// A Follow-up from the discovery engine (``DiscoveryNotification/followUpReceived(_:)``).
    case received(FollowUpMessage)
    case timerFired(BootstrapTimer)
    case abort
}
