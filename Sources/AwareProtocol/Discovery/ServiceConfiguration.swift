import AwareCore
import AwareWire

/// What the engine checks and uses alike when it starts a publish or a subscribe.
protocol ServiceConfiguration: Sendable {
    var serviceName: String { get }
    var transmitMatchingFilter: MatchingFilter? { get }
    var receiveMatchingFilter: MatchingFilter? { get }
    var serviceInfo: ServiceSpecificInfo? { get }
    var timeToLive: Interval? { get }
    var instanceID: UInt8? { get }
}

extension PublishConfiguration: ServiceConfiguration {}

extension SubscribeConfiguration: ServiceConfiguration {}

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
    /// Synchronized mode: unsolicited publishes go out in every `announcementPeriod`-th discovery
    /// window only (windows 512 TU apart, nan-wire-reference.md 1.4), a power-saving publisher's
    /// choice; 1 announces in every window. Solicited replies are not held back.
    public var announcementPeriod: Int

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
        serviceUpdateIndicator: UInt8 = 0,
        announcementPeriod: Int = 1
    ) {
        self.announcementPeriod = max(1, announcementPeriod)
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

/// Which Publish messages a service sends (nan-wire-reference.md 2.4): unsolicited ones on its
/// own, solicited ones as unicast replies to matching active subscribes, or both.
public enum PublishSolicitation: String, Hashable, Sendable, CaseIterable {
    case unsolicited
    case solicited
    case both

    public var sendsUnsolicited: Bool { self != .solicited }
    public var answersSubscribes: Bool { self != .unsolicited }
}

/// New content for a running publish. Fields left nil keep their value. Applying an update adds
/// one to the Service Update Indicator and announces at once, so subscribers that already
/// discovered the service report it again (nan-wire-reference.md 2.5).
public struct PublishUpdate: Hashable, Sendable {
    public var serviceInfo: ServiceSpecificInfo?
    public var pairing: PairingAdvertisement?
    public var additionalAttributes: [NANAttribute]?
    public var transmitMatchingFilter: MatchingFilter?

    public init(
        serviceInfo: ServiceSpecificInfo? = nil,
        pairing: PairingAdvertisement? = nil,
        additionalAttributes: [NANAttribute]? = nil,
        transmitMatchingFilter: MatchingFilter? = nil
    ) {
        self.serviceInfo = serviceInfo
        self.pairing = pairing
        self.additionalAttributes = additionalAttributes
        self.transmitMatchingFilter = transmitMatchingFilter
    }
}

/// What a publish says about pairing: the DCEA Pairing Setup / NPK-NIK Caching bits and the
/// bootstrapping methods of an NPBA Advertise (nan-wire-reference.md 2.16, 2.18, 3.3) — what the
/// phone reads from an accessory (apple-peer-model.md 3: the accessory advertises PIN display).
public struct PairingAdvertisement: Hashable, Sendable {
    public var pairingSetupEnabled: Bool
    public var npkNIKCachingEnabled: Bool
    /// Empty: no NPBA is sent (hostap adds it only when the bitmap is non-zero, 3.3).
    public var bootstrappingMethods: BootstrappingMethods
    /// The NIRA a device that keeps its keys advertises so that paired peers recognise it
    /// under any NMI (2.17, 3.3, 3.7).
    public var identityResolution: IdentityResolutionAttribute?

    public init(
        pairingSetupEnabled: Bool = true,
        npkNIKCachingEnabled: Bool = true,
        bootstrappingMethods: BootstrappingMethods = .pinCodeDisplay,
        identityResolution: IdentityResolutionAttribute? = nil
    ) {
        self.pairingSetupEnabled = pairingSetupEnabled
        self.npkNIKCachingEnabled = npkNIKCachingEnabled
        self.bootstrappingMethods = bootstrappingMethods
        self.identityResolution = identityResolution
    }

    /// DCEA, then NPBA Advertise (Dialog Token 0, type Advertise, status Accepted) when any method
    /// is set, then the NIRA (hostap's order in session A frame 1).
    var attributes: [NANAttribute] {
        var attributes: [NANAttribute] = [
            .deviceCapabilityExtension(
                DeviceCapabilityExtensionAttribute(
                    pairingSetupEnabled: pairingSetupEnabled,
                    npkNIKCachingEnabled: npkNIKCachingEnabled
                )
            )
        ]
        if !bootstrappingMethods.isEmpty {
            attributes.append(
                .pairingBootstrapping(
                    PairingBootstrappingAttribute(
                        dialogToken: 0,
                        type: .advertise,
                        status: .accepted,
                        methods: bootstrappingMethods
                    )
                )
            )
        }
        if let identityResolution { attributes.append(.identityResolution(identityResolution)) }
        return attributes
    }
}

/// What a device that takes part in data paths says about itself in its SDFs: its Device
/// Capability and its NAN Availability (nan-wire-reference.md 2.6, 2.7, 4.1).
///
/// A peer plans a data path from them before it sends a single NAF: hostap's `nan.c` stores
/// the Device Capability of every peer it hears (in an SDF of a matched service or any NAF),
/// refuses to set up a data path with a peer it has none for ("no device capabilities"), and
/// picks NDP or NDPE by its NDPE bit. Every SDF of the hostap session in
/// `Fixtures/hostap-session-A/` carries both, publish, subscribe and follow-up alike.
///
/// A publish that invites no data path (a Remote ID-style beacon) leaves them out
/// (``PublishConfiguration/offersDataPaths``).
public struct DataPathAdvertisement: Hashable, Sendable {
    /// nil sends none (only a fault does that: a peer then opens no data path).
    public var deviceCapability: DeviceCapabilityAttribute?
    /// nil sends no NAN Availability: a device that cannot say yet when it is awake.
    public var availability: AvailabilityAttribute?

    public init(deviceCapability: DeviceCapabilityAttribute?, availability: AvailabilityAttribute?) {
        self.deviceCapability = deviceCapability
        self.availability = availability
    }

    /// Device Capability, then NAN Availability (hostap's order, session A frames 1-13).
    public var attributes: [NANAttribute] {
        var attributes: [NANAttribute] = []
        if let deviceCapability { attributes.append(.deviceCapability(deviceCapability)) }
        if let availability { attributes.append(.availability(availability)) }
        return attributes
    }
}

extension DeviceCapabilityAttribute {
    /// What the bench's devices say of themselves (2.6): the capability applies to every map
    /// (Map ID 0, as hostap always sends); they wake for every 2.4 GHz and every 5 GHz discovery
    /// window (Committed DW Info 0x0009: 2^(1-1) = every DW in both bands, as hostap); they work
    /// on 2.4 GHz and 5 GHz (Supported Bands b2 + b4 = 0x14); the modelled PHY is OFDM without
    /// HT options, so Operation Mode is 0; one transmit and one receive chain (0x11); they keep
    /// the home channel while a data path runs, so switching costs nothing to announce (0 µs);
    /// and they read and write the NDPE attribute (Capabilities b3 = 0x08), which hostap and an
    /// iPhone (NAN R4) both support.
    public static func bench(ndpeSupported: Bool = true) -> DeviceCapabilityAttribute {
        DeviceCapabilityAttribute(
            mapID: 0,
            committedDWInfo: 0x0009,
            supportedBands: 0x14,
            operationMode: 0,
            numberOfAntennas: 0x11,
            maxChannelSwitchTime: 0,
            capabilities: ndpeSupported ? 0x08 : 0
        )
    }
}

/// One service to look for.
public struct SubscribeConfiguration: Hashable, Sendable {
    /// Hashed case-insensitively into the Service ID (nan-wire-reference.md 2.4).
    public var serviceName: String
    public var mode: SubscribeMode
    /// Sent in the SDA of an active Subscribe; the publisher matches it against its receive filter.
    public var transmitMatchingFilter: MatchingFilter?
    /// Matched against the transmit filter of an unsolicited Publish.
    public var receiveMatchingFilter: MatchingFilter?
    /// Sent in an active Subscribe: which publishers may answer (nan-wire-reference.md 2.4).
    public var serviceResponseFilter: ServiceResponseFilter?
    public var serviceInfo: ServiceSpecificInfo?
    /// The subscriber means to open data paths with what it finds, so its SDFs carry the
    /// device's Device Capability and NAN Availability (nan-wire-reference.md 4.1).
    public var seeksDataPaths: Bool
    public var additionalAttributes: [NANAttribute]
    /// How long the subscribe lasts; nil until cancelled.
    public var timeToLive: Interval?
    /// Sets SDA Discovery Range Limited and reports only publishers at or above the range threshold.
    public var discoveryRangeLimited: Bool
    /// 1...255; nil takes the lowest instance ID no other service holds.
    public var instanceID: UInt8?

    /// `matchingFilter` is both the transmit and the receive filter, as the phone's single
    /// `--match-filter` is; pass `receiveMatchingFilter` to tell them apart.
    public init(
        serviceName: String,
        mode: SubscribeMode = .passive,
        matchingFilter: MatchingFilter? = nil,
        receiveMatchingFilter: MatchingFilter?? = nil,
        serviceResponseFilter: ServiceResponseFilter? = nil,
        serviceInfo: ServiceSpecificInfo? = nil,
        seeksDataPaths: Bool = true,
        additionalAttributes: [NANAttribute] = [],
        timeToLive: Interval? = nil,
        discoveryRangeLimited: Bool = false,
        instanceID: UInt8? = nil
    ) {
        self.serviceName = serviceName
        self.mode = mode
        self.transmitMatchingFilter = matchingFilter
        self.receiveMatchingFilter = receiveMatchingFilter ?? matchingFilter
        self.serviceResponseFilter = serviceResponseFilter
        self.serviceInfo = serviceInfo
        self.seeksDataPaths = seeksDataPaths
        self.additionalAttributes = additionalAttributes
        self.timeToLive = timeToLive
        self.discoveryRangeLimited = discoveryRangeLimited
        self.instanceID = instanceID
    }

    public var serviceID: ServiceID { ServiceID(serviceName: serviceName) }
}

/// A passive subscriber only listens for unsolicited publishes; an active one also sends
/// Subscribe messages that solicited publishers answer (nan-wire-reference.md 1.5, 2.4).
public enum SubscribeMode: String, Hashable, Sendable, CaseIterable {
    case passive
    case active
}
