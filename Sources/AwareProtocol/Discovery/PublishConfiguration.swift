import AwareCore
import AwareWire

/// One service to publish. Its Publish SDF carries, in this order (apple-peer-model.md 5.3,
/// nan-wire-reference.md 2.4, 2.5, 3.3): SDA; SDEA with the Service Update Indicator and the
/// service info (a Bonjour TXT record for the phone); Device Capability and NAN Availability
/// when it ``offersDataPaths`` (``DiscoveryEngine/dataPathAdvertisement``); DCEA and NPBA
/// Advertise from ``pairing``; then ``additionalAttributes`` as given.
public struct PublishConfiguration: Hashable, Sendable {
    /// Hashed case-insensitively into the Service ID (nan-wire-reference.md 2.4).
    public var serviceName: String
    public var solicitation: PublishSolicitation
    /// Sent in the SDA of every Publish; passive subscribers match their receive filter against it.
    public var transmitMatchingFilter: MatchingFilter?
    /// Matched against an active subscriber's transmit filter before a solicited reply.
    public var receiveMatchingFilter: MatchingFilter?
    /// SDEA Service Info (OUI, protocol type, info): `ServiceSpecificInfo(bonjour:)` for a TXT record.
    public var serviceInfo: ServiceSpecificInfo?
    /// SDEA Control bits other than the presence bits (security required, data path required, ...).
    public var extensionControl: ServiceDescriptorExtensionControl
    public var pairing: PairingAdvertisement?
    /// The service accepts data paths, so its SDFs carry the device's Device Capability and NAN
    /// Availability (nan-wire-reference.md 4.1). false for a beacon-like publish (Remote ID).
    public var offersDataPaths: Bool
    /// The data path cipher suites (CSIDs) of a service whose SDEA says Security Required: the
    /// publish names them in a Cipher Suite Info attribute for its instance, as hostap's does
    /// (`nan_de_sdf_attrs_put`), so a subscriber knows which suite to ask for.
    public var dataPathCipherSuites: [UInt8]
    public var additionalAttributes: [NANAttribute]
    /// How long the publish lasts; nil until cancelled.
    public var timeToLive: Interval?
    /// Sets SDA Discovery Range Limited and answers only subscribers at or above the range threshold.
    public var discoveryRangeLimited: Bool
    /// 1...255; nil takes the lowest instance ID no other service holds.
    public var instanceID: UInt8?
    /// The first Service Update Indicator; every ``DiscoveryCommand/updatePublish(instanceID:_:)`` adds one.
    public var serviceUpdateIndicator: UInt8

    /// `matchingFilter` is both the transmit and the receive filter, as an accessory profile's
    /// single filter is; pass `receiveMatchingFilter` to tell them apart.
    public init(
        serviceName: String,
        solicitation: PublishSolicitation = .both,
        matchingFilter: MatchingFilter? = nil,
        receiveMatchingFilter: MatchingFilter?? = nil,
        serviceInfo: ServiceSpecificInfo? = nil,
        extensionControl: ServiceDescriptorExtensionControl = [],
        pairing: PairingAdvertisement? = nil,
        offersDataPaths: Bool = true,
        dataPathCipherSuites: [UInt8] = [],
        additionalAttributes: [NANAttribute] = [],
        timeToLive: Interval? = nil,
        discoveryRangeLimited: Bool = false,
        instanceID: UInt8? = nil,
        serviceUpdateIndicator: UInt8 = 0
    ) {
        self.serviceName = serviceName
        self.solicitation = solicitation
        self.transmitMatchingFilter = matchingFilter
        self.receiveMatchingFilter = receiveMatchingFilter ?? matchingFilter
        self.serviceInfo = serviceInfo
        self.extensionControl = extensionControl
        self.pairing = pairing
        self.offersDataPaths = offersDataPaths
        self.dataPathCipherSuites = dataPathCipherSuites
        self.additionalAttributes = additionalAttributes
        self.timeToLive = timeToLive
        self.discoveryRangeLimited = discoveryRangeLimited
        self.instanceID = instanceID
        self.serviceUpdateIndicator = serviceUpdateIndicator
    }

    public var serviceID: ServiceID { ServiceID(serviceName: serviceName) }
}
