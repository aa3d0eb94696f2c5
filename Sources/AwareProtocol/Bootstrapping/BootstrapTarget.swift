import AwareCore
import AwareWire

/// The peer service instance a ``BootstrapRequester`` bootstraps with, and the method the
/// requester will use itself (for example ``BootstrappingMethods/pinCodeKeypad``: "I will type
/// the PIN"; nan-wire-reference.md 3.2).
public struct BootstrapTarget: Hashable, Sendable {
    /// The peer's NMI.
    public var peerAddress: MACAddress
    /// The own subscribe (or publish) instance the follow-ups belong to.
    public var localInstanceID: UInt8
    public var peerInstanceID: UInt8
    /// Exactly one bit.
    public var method: BootstrappingMethods
    /// nil: drawn at random in 1...255. A fixed token is for scripted tests and replays.
    public var dialogToken: UInt8?

    public init(
        peerAddress: MACAddress,
        localInstanceID: UInt8,
        peerInstanceID: UInt8,
        method: BootstrappingMethods,
        dialogToken: UInt8? = nil
    ) {
        self.peerAddress = peerAddress
        self.localInstanceID = localInstanceID
        self.peerInstanceID = peerInstanceID
        self.method = method
        self.dialogToken = dialogToken
    }
}
