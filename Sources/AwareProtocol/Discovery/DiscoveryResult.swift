import AwareCore
import AwareWire

/// A publisher a subscribe found (hostap `NAN-DISCOVERY-RESULT`), with everything a later
/// pairing step needs from the Publish: the DCEA, NPBA Advertise and NIRA it carried.
public struct DiscoveryResult: Hashable, Sendable {
    public var subscribeInstanceID: UInt8
    /// The local subscribe's service name, as configured.
    public var serviceName: String
    public var serviceID: ServiceID
    /// The publisher's NMI (A2).
    public var publisherAddress: MACAddress
    public var publishInstanceID: UInt8
    /// A3 of the Publish: the NAN Network ID in USD, the Cluster ID when synchronized (1.3).
    public var addressThree: MACAddress
    /// True for a unicast reply to this subscriber's active Subscribe.
    public var solicited: Bool
    public var rssiDBm: Int
    public var channel: NANChannel
    public var timestamp: Instant
    public var serviceUpdateIndicator: UInt8?
    /// SDEA Service Info (OUI, protocol type, info).
    public var serviceSpecificInfo: ServiceSpecificInfo?
    /// Service Info carried in the SDA itself (legacy, 2.4).
    public var descriptorServiceInfo: [UInt8]?
    /// The publisher's transmit matching filter.
    public var matchingFilter: MatchingFilter?
    public var deviceCapabilityExtension: DeviceCapabilityExtensionAttribute?
    /// The methods of an NPBA Advertise, if the Publish carried one.
    public var bootstrappingMethods: BootstrappingMethods?
    public var identityResolution: IdentityResolutionAttribute?
    /// Every attribute of the SDF, in order.
    public var attributes: [NANAttribute]
    public var outcome: DiscoveryMatchOutcome

    /// The TXT record of a Bonjour SDEA Service Info (apple-peer-model.md: vendorName, modelName,
    /// pairingName); nil for other protocol types or a record that does not parse.
    public var txtRecord: DNSSDTXTRecord? { serviceSpecificInfo?.txtRecord }

    public var matched: Bool { outcome == .matched }

    /// The publisher's Device Capability (2.6): what a data path with it may use, NDPE first of
    /// all. nil when the Publish carried none (hostap then opens no data path with it).
    public var deviceCapability: DeviceCapabilityAttribute? {
        for case .deviceCapability(let capability) in attributes { return capability }
        return nil
    }

    /// The publisher's NAN Availability (2.7), if the Publish carried one.
    public var availability: AvailabilityAttribute? {
        for case .availability(let availability) in attributes { return availability }
        return nil
    }
}
