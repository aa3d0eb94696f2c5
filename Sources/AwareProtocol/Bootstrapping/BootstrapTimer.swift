import AwareCore
import AwareWire

/// The timers the bootstrapping machines arm. Arming a timer that is already armed moves it; a
/// timer that fires after its state has moved on is ignored.
public enum BootstrapTimer: Hashable, Sendable {
    /// Requester: re-send the outstanding Request (`NAN_BOOTSTRAP_RETRY_TIMEOUT_US`, 1 s;
    /// nan-wire-reference.md 3.2).
    case retransmit(peer: MACAddress)
    /// Requester: the Comeback After time of the peer's Response has passed.
    case comeback(peer: MACAddress)
    /// Responder: the session with this peer ends.
    case sessionExpiry(peer: MACAddress)
}
