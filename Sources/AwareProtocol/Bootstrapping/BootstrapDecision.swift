/// The owner's answer to ``BootstrapResponderNotification/authorizationRequested(peer:peerInstanceID:method:)``.
public enum BootstrapDecision: Hashable, Sendable {
    /// Go ahead (the accessory has drawn and shown its PIN): the peer is told to come back.
    case authorize
    /// For example 8 SECURITY_POLICY while locked out, 2 RESOURCE_LIMITATION when full
    /// (nan-wire-reference.md 2.11).
    case reject(reasonCode: UInt8)
}
