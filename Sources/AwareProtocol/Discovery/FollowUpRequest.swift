import AwareCore
import AwareWire

/// A Follow-up to send to a peer instance (nan-wire-reference.md 1.3: A1 = peer NMI, A3 = the A3
/// learned from the peer's last frame). Bootstrapping and NIK delivery ride on follow-ups
/// (1.2), so any attributes may be appended after the SDA and SDEA.
public struct FollowUpRequest: Hashable, Sendable {
    /// The own publish or subscribe instance the follow-up belongs to.
    public var localInstanceID: UInt8
    public var peerAddress: MACAddress
    public var peerInstanceID: UInt8
    /// Sent in the SDEA.
    public var serviceInfo: ServiceSpecificInfo?
    public var attributes: [NANAttribute]
    /// Echoed in ``DiscoveryNotification/followUpTransmitted(token:acknowledged:)``.
    public var token: UInt32

    public init(
        localInstanceID: UInt8,
        peerAddress: MACAddress,
        peerInstanceID: UInt8,
        serviceInfo: ServiceSpecificInfo? = nil,
        attributes: [NANAttribute] = [],
        token: UInt32 = 0
    ) {
        self.localInstanceID = localInstanceID
        self.peerAddress = peerAddress
        self.peerInstanceID = peerInstanceID
        self.serviceInfo = serviceInfo
        self.attributes = attributes
        self.token = token
    }
}
