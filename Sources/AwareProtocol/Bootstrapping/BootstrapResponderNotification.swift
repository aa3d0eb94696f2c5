import AwareCore
import AwareWire

/// What a ``BootstrapResponder`` tells its owner.
public enum BootstrapResponderNotification: Hashable, Sendable {
    /// A peer asks to bootstrap with a method that needs the owner (a PIN to draw and show):
    /// answer with ``BootstrapResponderEvent/decide(peer:_:)``. `method` is this side's.
    case authorizationRequested(peer: MACAddress, peerInstanceID: UInt8, method: BootstrappingMethods)
    /// Bootstrapping is done; `method` is this side's (the complement of the peer's).
    case accepted(peer: MACAddress, method: BootstrappingMethods)
    /// A Request whose method is not one bit, or whose complement is not offered: it was
    /// answered Rejected, reason 13 PAIR_BOOTSTRAP_REJECTED.
    case methodNotOffered(peer: MACAddress, requested: BootstrappingMethods)
    /// A comeback Request with a wrong cookie, token or method, or without a session waiting
    /// for it: answered Rejected (13) and the session dropped.
    case invalidComeback(peer: MACAddress)
    case sessionExpired(peer: MACAddress)
}
