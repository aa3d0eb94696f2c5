import AwareCore
import AwareWire

/// A Follow-up addressed to one of the local instances (hostap `NAN-RECEIVE`).
public struct FollowUpMessage: Hashable, Sendable {
    public var localInstanceID: UInt8
    public var peerAddress: MACAddress
    public var peerInstanceID: UInt8
    public var serviceSpecificInfo: ServiceSpecificInfo?
    /// Service Info carried in the SDA itself (legacy, 2.4).
    public var descriptorServiceInfo: [UInt8]?
    /// Every attribute of the SDF, in order (an NPBA request, a Shared Key Descriptor, ...).
    public var attributes: [NANAttribute]
    public var rssiDBm: Int
    public var timestamp: Instant
}
