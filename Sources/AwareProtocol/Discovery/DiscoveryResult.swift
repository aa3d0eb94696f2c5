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

/// Whether a received Publish matched a subscribe, and if not, the first rule that rejected it.
public enum DiscoveryMatchOutcome: String, Hashable, Sendable {
    case matched
    /// The subscriber's receive filter does not match the publisher's transmit filter (2.4).
    case matchingFilterMismatch
    /// The publish's SRF leaves this station out (2.4).
    case excludedByServiceResponseFilter
    /// Discovery Range Limited and the RSSI is below the threshold (1.5).
    case outOfRange
}

/// A publish answered a matching active Subscribe with a solicited Publish (hostap `NAN-REPLIED`).
public struct SubscriberReply: Hashable, Sendable {
    public var publishInstanceID: UInt8
    public var subscriberAddress: MACAddress
    public var subscribeInstanceID: UInt8
    public var rssiDBm: Int
    /// The subscriber's SDEA Service Info, if any.
    public var serviceSpecificInfo: ServiceSpecificInfo?

    public init(
        publishInstanceID: UInt8,
        subscriberAddress: MACAddress,
        subscribeInstanceID: UInt8,
        rssiDBm: Int,
        serviceSpecificInfo: ServiceSpecificInfo?
    ) {
        self.publishInstanceID = publishInstanceID
        self.subscriberAddress = subscriberAddress
        self.subscribeInstanceID = subscribeInstanceID
        self.rssiDBm = rssiDBm
        self.serviceSpecificInfo = serviceSpecificInfo
    }
}

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
