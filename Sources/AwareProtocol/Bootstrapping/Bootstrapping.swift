import AwareCore
import AwareWire

/// The outcome of a successful bootstrapping, as either side sees it: who displays and who
/// enters (nan-wire-reference.md 3.2), and the Request NPBA that hostap carries on into PASN
/// frames 1 and 2 (3.2, 3.9).
public struct BootstrapAgreement: Hashable, Sendable {
    public var peerAddress: MACAddress
    public var localInstanceID: UInt8
    public var peerInstanceID: UInt8
    /// The own method (requester: the one it asked for; responder: the complement it accepted).
    public var method: BootstrappingMethods
    public var peerMethod: BootstrappingMethods
    /// The requester keeps the first Request it built (status 0: hostap session frame 14); the
    /// responder keeps the last Request it received (the comeback Request: frame 15).
    public var request: PairingBootstrappingAttribute

    public init(
        peerAddress: MACAddress,
        localInstanceID: UInt8,
        peerInstanceID: UInt8,
        method: BootstrappingMethods,
        peerMethod: BootstrappingMethods,
        request: PairingBootstrappingAttribute
    ) {
        self.peerAddress = peerAddress
        self.localInstanceID = localInstanceID
        self.peerInstanceID = peerInstanceID
        self.method = method
        self.peerMethod = peerMethod
        self.request = request
    }
}
