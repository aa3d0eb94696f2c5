import AwareCore
import AwareWire

/// What happens to a ``BootstrapResponder``.
public enum BootstrapResponderEvent: Hashable, Sendable {
    /// A Follow-up from the discovery engine (``DiscoveryNotification/followUpReceived(_:)``).
    case received(FollowUpMessage)
    case decide(peer: MACAddress, BootstrapDecision)
    case timerFired(BootstrapTimer)
    /// Drop the peer's session without a word to the peer.
    case forget(peer: MACAddress)
}
