import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The emulated accessory: a NAN device that publishes what its profile says, the way an
/// accessory's firmware would, and reports what happens as ``AccessoryEvent``s.
///
/// Faults (``AccessoryFault``) are applied here, at the edge: they change what the
/// accessory is configured to publish, or rewrite frames between its machines and the air,
/// so the protocol machines themselves stay correct.
public final class Accessory {
    public let profile: AccessoryProfile
    public let options: AccessoryOptions
    public let address: MACAddress
    public let device: NANDevice
    /// Called on the air's scheduler for every event.
    public var eventHandler: ((AccessoryEvent) -> Void)?
    /// The accessory's display: receives the PIN when a phone asks to pair. The PIN goes
    /// nowhere else (no event, no log).
    public var pinDisplayHandler: ((PINDisplay) -> Void)?
    /// The publish instance of each service, by service name, once started.
    public private(set) var publishedInstances: [String: UInt8] = [:]
    private var lastSubscriber: MACAddress?
    private var pairing: AccessoryPairing?
    private var dataService: AccessoryDataService?
    private var subscriber: AccessorySubscriber?

    /// `pairingStore` keeps paired phones across restarts (`--state-dir`); without one they are
    /// kept in memory for this run only.
    public init(
        profile: AccessoryProfile,
        air: any Air,
        options: AccessoryOptions = AccessoryOptions(),
        pairingStore: PairingStore? = nil
    ) {
        self.profile = profile
        self.options = options
        address = options.address ?? Self.defaultAddress(profile: profile, seed: options.seed)
        let synchronization =
            options.unsynchronized
            ? nil : SynchronizationConfiguration(address: address, channels: Self.channels(of: profile))
        device = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: address,
                position: options.position,
                synchronization: synchronization
            ),
            air: air,
            seed: options.seed
        )
        device.delegate = self
        if let settings = profile.pairing {
            let pairing = AccessoryPairing(
                settings: settings,
                pairingName: profile.device.pairingName ?? profile.device.modelName,
                services: profile.services,
                device: device,
                store: pairingStore,
                // Each boot draws a new NIRA nonce (nan-wire-reference.md 3.3, issue 4).
                seed: options.seed &+ UInt64(options.boot ?? 0) &* 0x9E37_79B9_7F4A_7C15,
                faults: options.faults,
                pinSource: options.pinSource,
                emit: { _, _, _ in },
                display: { _ in }
            )
            pairing.emit = { [weak self] name, fields, text in self?.emit(name, fields, text: text) }
            pairing.display = { [weak self] display in self?.pinDisplayHandler?(display) }
            self.pairing = pairing
        }
        device.acceptsUnprotectedFromPairedPeers = options.faults.contains(.acceptUnprotected)
        if profile.services.contains(where: { $0.datapath != nil }) {
            let service = AccessoryDataService(
                profile: profile,
                faults: options.faults,
                device: device,
                seed: options.seed &+ UInt64(options.boot ?? 0),
                seeded: options.pinSource == .seeded,
                pairingKeys: { _ in nil },
                publishInstances: { [:] },
                emit: { _, _, _ in }
            )
            service.pairingKeys = { [weak self] peer in
                self?.pairing?.manager.dataPathKeys[peer].map { ($0.ndPMK, $0.suite) }
            }
            service.publishInstances = { [weak self] in self?.publishedInstances ?? [:] }
            service.emit = { [weak self] name, fields, text in self?.emit(name, fields, text: text) }
            dataService = service
        }
        if let pairing, !profile.subscribedServices.isEmpty {
            let subscriber = AccessorySubscriber(
                subscriptions: profile.subscribedServices,
                faults: options.faults,
                device: device,
                pairing: pairing,
                dataService: dataService,
                emit: { _, _, _ in }
            )
            subscriber.emit = { [weak self] name, fields, text in self?.emit(name, fields, text: text) }
            pairing.attemptEnded = { [weak subscriber] result in subscriber?.attemptEnded(result) }
            self.subscriber = subscriber
        }
    }

    /// The reverse role: enters the PIN the publishing phone shows, for the pairing that waits
    /// for one (event `pin_requested`). Returns false when none waits.
    @discardableResult
    public func enterPIN(_ pin: String) -> Bool {
        guard let manager = pairing?.manager, manager.awaitingPIN else { return false }
        manager.enterPIN(pin)
        return true
    }

    /// Whether a pairing the accessory initiated waits for its PIN.
    public var awaitsPIN: Bool { pairing?.manager.awaitingPIN ?? false }

    /// The performance mode the accessory's listener runs in (apple-peer-model.md 1.7): the
    /// profile's default until changed. A phone that asks for another is refused.
    public var performanceMode: PerformanceMode {
        get { dataService?.mode ?? profile.performance.defaultMode }
        set { dataService?.mode = newValue }
    }

    /// Asks every phone with a data path to move the NDL to the schedule `mode` offers (the
    /// performance mode now when nil); returns the phones asked (docs/reference/control.md,
    /// `renegotiate-schedule`). The mode the accessory runs in does not change.
    @discardableResult
    public func renegotiateSchedules(mode: PerformanceMode? = nil) -> [MACAddress] {
        guard let dataService else { return [] }
        return dataService.renegotiateSchedules(mode: mode ?? dataService.mode)
    }

    /// The data paths up now.
    public var dataPaths: [NDPLink] { dataService.map { Array($0.manager.links.values) } ?? [] }

    /// The accessory's performance report for one data path, as it would answer a phone.
    public func performanceReport(for link: DataLinkID) -> PerformanceReport? {
        dataService?.sessions[link]?.report()
    }

    /// The NIRA this boot advertises, when the accessory caches keys.
    public var identityResolution: IdentityResolutionAttribute? { pairing?.manager.identityResolution }

    /// The phones this accessory is paired with now, as its pairing keeps them (the store's
    /// records when it has one). Their keys stay inside the records' redacted descriptions.
    public var pairedPeers: [PairingRecord] { pairing?.manager.records ?? [] }

    /// The NMI the profile gives (`radio.nmi`), or one derived from `radio.nmiSeed`, else from
    /// the run's seed.
    public static func defaultAddress(profile: AccessoryProfile, seed: UInt64) -> MACAddress {
        profile.radio.nmiAddress
            ?? AccessoryIdentity.address(fromSeed: profile.radio.nmiSeed.map(UInt64.init) ?? seed)
    }

    /// The publishes the profile asks for, after faults.
    public var publishConfigurations: [PublishConfiguration] {
        var services = profile.services
        if options.faults.contains(.firstServiceOnly) { services = Array(services.prefix(1)) }
        return services.map(publishConfiguration(for:))
    }

    /// Joins the air and starts publishing every service.
    public func start() throws(AirError) {
        try device.start()
        // The SDFs of data-path services carry the Device Capability and NAN Availability a phone
        // plans a data path from (nan-wire-reference.md 4.1).
        if let dataService { device.advertiseDataPaths(offering: dataService.availability(for: dataService.mode)) }
        emit(
            "ready",
            [
                ("nmi", .string(address.description)),
                ("vendorName", .string(profile.device.vendorName)),
                ("modelName", .string(profile.device.modelName)),
                ("services", .array(profile.services.map { .string($0.name) })),
                ("discovery", .string(options.unsynchronized ? "usd" : "synchronized")),
                ("faults", .array(options.faults.map(\.rawValue).sorted().map { .string($0) })),
                ("boot", options.boot.map { .unsigned(UInt64($0)) } ?? .null),
            ],
            text: "ready: \(profile.device.vendorName) \(profile.device.modelName) as \(address)"
        )
        pairing?.start()
        for configuration in publishConfigurations { device.perform(.publish(configuration)) }
        subscriber?.start()
    }

    /// Changes a service's info and announces the change with a new service update
    /// indicator (nan-wire-reference.md 2.5), as firmware does when its state changes.
    public func updateServiceInfo(service name: String, txt extra: [String: String]) {
        guard let instance = publishedInstances[name],
            let service = profile.services.first(where: { $0.name == name })
        else { return }
        device.perform(
            .updatePublish(instanceID: instance, PublishUpdate(serviceInfo: serviceInfo(for: service, extra: extra)))
        )
    }

    /// Stops publishing and leaves the air.
    public func stop() {
        subscriber?.stop()
        dataService?.stop()
        pairing?.stop()
        device.stop()
        emit("stopped", [], text: "stopped")
    }

    // MARK: - Profile to configuration

    static func channels(of profile: AccessoryProfile) -> [NANChannel] {
        profile.radio.discoveryChannels.compactMap { number in
            switch number {
            case 6: .channel6
            case 149: .channel149
            case 44: .channel44
            default: nil
            }
        }
    }

    /// Unsolicited publishes in every Nth discovery window (`publishPeriodDWs`, 1 when not
    /// stated); the `publish-period-slower` fault announces half as often as the profile says.
    private func announcementPeriod(of service: ServiceProfile) -> Int {
        guard let period = service.publishPeriodDWs else { return 1 }
        return options.faults.contains(.slowerPublishPeriod) ? 2 * period : period
    }

    private func publishConfiguration(for service: ServiceProfile) -> PublishConfiguration {
        var configuration = PublishConfiguration(
            serviceName: service.name,
            solicitation: options.faults.contains(.unsolicitedWhenSolicitedOnly) && service.publishType == .solicited
                ? .both : PublishSolicitation(rawValue: service.publishType.rawValue) ?? .both,
            matchingFilter: options.faults.contains(.omitMatchFilter) ? nil : service.matchingFilter,
            receiveMatchingFilter: .some(service.matchingFilter),
            serviceInfo: serviceInfo(for: service, extra: [:]),
            offersDataPaths: service.datapath != nil,
            timeToLive: options.faults.contains(.ignoreTTL) ? nil : service.ttlSeconds.map { .seconds(Int64($0)) },
            discoveryRangeLimited: service.rangeLimited && !options.faults.contains(.ignoreRangeLimit),
            instanceID: UInt8(exactly: service.instanceId),
            announcementPeriod: announcementPeriod(of: service)
        )
        if let pairing = profile.pairing, !options.faults.contains(.noPairingAdvertisement) {
            configuration.pairing = PairingAdvertisement(
                pairingSetupEnabled: true,
                npkNIKCachingEnabled: pairing.cache.npk && pairing.cache.nik,
                bootstrappingMethods: BootstrappingMethods(rawValue: pairing.bootstrappingBitmap),
                identityResolution: self.pairing?.manager.identityResolution
            )
        }
        if service.datapath != nil {
            configuration.extensionControl.insert(.dataPathRequired)
            if profile.pairing != nil {
                configuration.extensionControl.insert(.securityRequired)
                configuration.dataPathCipherSuites = (service.datapath?.cipherSuites ?? []).map(\.csid)
            }
        }
        return configuration
    }

    /// The service info a publish carries: the DNS-SD TXT record the phone reads
    /// (vendorName, modelName, pairingName; apple-peer-model.md) plus the profile's own
    /// keys, or the profile's raw octets for a service that is not Bonjour.
    private func serviceInfo(for service: ServiceProfile, extra: [String: String]) -> ServiceSpecificInfo? {
        if let raw = service.serviceInfo?.rawOctets {
            return ServiceSpecificInfo(protocolType: .generic, info: raw)
        }
        var entries = profile.pairingTXTEntries
        if options.faults.contains(.missingPairingName) { entries.removeAll { $0.key == "pairingName" } }
        if options.faults.contains(.vendorNameUppercased) {
            entries = entries.map { $0.key == "vendorName" ? (key: $0.key, value: $0.value.uppercased()) : $0 }
        }
        if options.faults.contains(.wrongModelName) {
            entries = entries.map { $0.key == "modelName" ? (key: $0.key, value: $0.value + " X") : $0 }
        }
        if options.faults.contains(.missingModelName) { entries.removeAll { $0.key == "modelName" } }
        if options.faults.contains(.longTXTValue) {
            entries = entries.map {
                $0.key == "vendorName" ? (key: $0.key, value: $0.value + String(repeating: "!", count: 64)) : $0
            }
        }
        var own = service.serviceInfo?.sortedTXTEntries ?? []
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
            own.removeAll { $0.key == key }
            own.append((key: key, value: value))
        }
        return ServiceSpecificInfo(bonjour: DNSSDTXTRecord(entries + own))
    }

    // MARK: - Application messages in follow-ups

    /// The emulated app's side of a small message exchange without a data path (a token exchange
    /// before a session): it returns the payload to the sender in a follow-up, as an acknowledgement.
    private func answerAppMessage(_ received: AppMessage, in followUp: FollowUpMessage) {
        emit(
            "app_message_received",
            [
                ("from", .string(followUp.peerAddress.description)),
                ("octets", .unsigned(UInt64(received.body.payloadBytes.count))),
            ],
            text: "application message of \(received.body.payloadBytes.count) octets from \(followUp.peerAddress)"
        )
        let reply = AppMessage(
            flowID: received.flowID,
            sequence: received.sequence,
            sentAt: device.scheduler.sharedTimestamp(of: device.now),
            body: received.body
        )
        guard let answer = try? FollowUpAppMessage(reply) else { return }
        device.perform(
            .transmitFollowUp(
                FollowUpRequest(
                    localInstanceID: followUp.localInstanceID,
                    peerAddress: followUp.peerAddress,
                    peerInstanceID: followUp.peerInstanceID,
                    serviceInfo: answer.serviceInfo
                )
            )
        )
    }

    // MARK: - Events

    private func handle(_ notification: DeviceNotification) {
        switch notification {
        case .discovery(let event): handle(event)
        case .synchronization(let event): handle(event)
        case .frameDropped(let reason, let transmitter):
            emit(
                "frame_dropped",
                [("reason", .string(reason.rawValue)), ("from", .string(transmitter?.description ?? "unknown"))],
                text: "dropped a frame from \(transmitter?.description ?? "an unknown station"): \(reason.rawValue)"
            )
        case .dataFrameDropped(let link, let reason):
            emit(
                "data_frame_dropped",
                [("reason", .string(reason.rawValue)), ("from", .string(link.peerNMI.description))],
                text: "dropped a data frame from \(link.peerNMI) (NDP \(link.ndpID)): \(reason.rawValue)"
            )
        }
    }

    private func handle(_ notification: DiscoveryNotification) {
        switch notification {
        case .publishStarted(let instance, let name):
            publishedInstances[name] = instance
            emit(
                "publish_started",
                [
                    ("service", .string(name)), ("instanceID", .unsigned(UInt64(instance))),
                    ("serviceID", .string(ServiceID(serviceName: name).description)),
                ],
                text: "publishing \(name) (instance \(instance), service ID \(ServiceID(serviceName: name)))"
            )
        case .replied(let reply):
            lastSubscriber = reply.subscriberAddress
            emit(
                "replied",
                [
                    ("instanceID", .unsigned(UInt64(reply.publishInstanceID))),
                    ("subscriber", .string(reply.subscriberAddress.description)),
                    ("rssi", .integer(Int64(reply.rssiDBm))),
                ],
                text: "answered a subscribe from \(reply.subscriberAddress) (\(reply.rssiDBm) dBm)"
            )
        case .followUpReceived(let message):
            if let info = message.serviceSpecificInfo, let app = try? FollowUpAppMessage(serviceInfo: info) {
                answerAppMessage(app.message, in: message)
            }
            emit(
                "follow_up_received",
                [
                    ("from", .string(message.peerAddress.description)),
                    ("instanceID", .unsigned(UInt64(message.localInstanceID))),
                ],
                text: "follow-up from \(message.peerAddress)"
            )
        case .publishUpdated(let instance, let indicator):
            emit(
                "publish_updated",
                [
                    ("instanceID", .unsigned(UInt64(instance))),
                    ("serviceUpdateIndicator", .unsigned(UInt64(indicator))),
                ],
                text: "service info updated (instance \(instance), update indicator \(indicator))"
            )
        case .terminated(let instance, let role, let reason):
            emit(
                "terminated",
                [
                    ("instanceID", .unsigned(UInt64(instance))), ("role", .string("\(role)")),
                    ("reason", .string(reason.name)),
                ],
                text: "instance \(instance) ended: \(reason.name)"
            )
        case .commandRejected(let error):
            emit("error", [("message", .string("\(error)"))], text: "error: \(error)")
        case .subscribeStarted(let instance, let name):
            subscriber?.subscribeStarted(instanceID: instance, serviceName: name)
        case .discoveryResult(let result):
            subscriber?.discovered(result)
        case .followUpTransmitted, .listen:
            break
        }
    }

    private func handle(_ notification: SynchronizationNotification) {
        switch notification {
        case .clusterStarted(let status):
            emit(
                "cluster_started",
                [("clusterID", .string(status.clusterID.description))],
                text: "formed cluster \(status.clusterID)"
            )
        case .clusterJoined(let status):
            emit(
                "cluster_joined",
                [("clusterID", .string(status.clusterID.description))],
                text: "joined cluster \(status.clusterID)"
            )
        case .clusterTimeAdjusted(let status, let moved):
            emit(
                "cluster_time_adjusted",
                [("clusterID", .string(status.clusterID.description)), ("byMicroseconds", .integer(moved))],
                text: "took the cluster's TSF again from a higher-ranked device: moved \(moved) µs"
            )
        default:
            break
        }
    }

    private func emit(_ name: String, _ fields: [(String, JSONValue)], text: String) {
        eventHandler?(AccessoryEvent(name: name, time: device.now, fields: fields, text: text))
    }
}

// MARK: - Device delegate: events, and faults at the edge

extension Accessory: NANDeviceDelegate {
    public func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
        handle(notification)
    }

    /// Faults that make the accessory deaf to part of what it hears: beacons, or the filters and
    /// service ID of subscribes (rewritten before the discovery machine sees them).
    public func device(_ device: NANDevice, filterInbound frame: ReceivedFrame) -> ReceivedFrame? {
        let faults = options.faults
        guard
            faults.contains(.ignoreMatchFilter) || faults.contains(.ignoreServiceResponseFilter)
                || faults.contains(.answerAnyService) || faults.contains(.ignoreBeacons)
        else { return frame }
        if faults.contains(.ignoreBeacons), case .nanBeacon = frame.frame.body { return nil }
        let ownServiceID = profile.services.first.map { ServiceID(serviceName: $0.name) }
        return Self.rewriteSubscribes(
            frame,
            matchFilter: faults.contains(.ignoreMatchFilter),
            responseFilter: faults.contains(.ignoreServiceResponseFilter),
            serviceID: faults.contains(.answerAnyService) ? ownServiceID : nil
        )
    }

    /// Faults in the publishes the accessory sends: dropped, with a wrong service ID or a stuck
    /// update indicator, or unicast to the last subscriber instead of multicast.
    public func device(_ device: NANDevice, filterOutbound request: TxRequest) -> TxRequest? {
        let faults = options.faults
        guard
            faults.contains(.noSolicitedReply) || faults.contains(.noUnsolicitedPublish)
                || faults.contains(.wrongServiceID) || faults.contains(.answerPassiveWithUnicast)
                || faults.contains(.noServiceUpdateIndicator)
        else { return request }
        guard var frame = try? IEEE80211Frame(bytes: request.frame).managementFrame,
            case .serviceDiscovery(var sdf) = frame.body,
            sdf.attributes.contains(where: {
                if case .serviceDescriptor(let sda) = $0 { sda.type == .publish } else { false }
            })
        else { return request }
        let multicast = frame.header.address1.isGroup
        if multicast && faults.contains(.noUnsolicitedPublish) { return nil }
        if !multicast && faults.contains(.noSolicitedReply) { return nil }
        if faults.contains(.wrongServiceID) {
            sdf.attributes = sdf.attributes.map { attribute in
                guard case .serviceDescriptor(var sda) = attribute else { return attribute }
                var octets = sda.serviceID.octets
                octets[5] ^= 0xFF
                sda.serviceID = ServiceID(octets) ?? sda.serviceID
                return .serviceDescriptor(sda)
            }
        }
        if faults.contains(.noServiceUpdateIndicator) {
            // The service info changes but the indicator stays where it started.
            sdf.attributes = sdf.attributes.map { attribute in
                guard case .serviceDescriptorExtension(var sdea) = attribute, sdea.serviceUpdateIndicator != nil
                else { return attribute }
                sdea.serviceUpdateIndicator = 0
                return .serviceDescriptorExtension(sdea)
            }
        }
        if multicast, faults.contains(.answerPassiveWithUnicast), let subscriber = lastSubscriber,
            subscriber != address
        {
            frame.header.address1 = subscriber
        }
        frame.body = .serviceDiscovery(sdf)
        var changed = request
        changed.frame = IEEE80211Frame.management(frame).wireBytes
        return changed
    }

    private static func rewriteSubscribes(
        _ frame: ReceivedFrame,
        matchFilter: Bool,
        responseFilter: Bool,
        serviceID: ServiceID?
    ) -> ReceivedFrame {
        guard case .serviceDiscovery(var sdf) = frame.frame.body else { return frame }
        sdf.attributes = sdf.attributes.map { attribute in
            guard case .serviceDescriptor(var sda) = attribute, sda.type == .subscribe else { return attribute }
            if matchFilter { sda.matchingFilter = nil }
            if let serviceID { sda.serviceID = serviceID }
            if responseFilter { sda.serviceResponseFilter = nil }
            return .serviceDescriptor(sda)
        }
        var changed = frame
        changed.frame.body = .serviceDiscovery(sdf)
        return changed
    }
}

// MARK: - AccessoryOptions

/// How one run of the accessory behaves beyond its profile.
public struct AccessoryOptions: Hashable, Sendable {
    /// Seeds the accessory's deterministic randomness (instance IDs, backoff, cluster ID).
    public var seed: UInt64
    public var faults: Set<AccessoryFault>
    /// Unsynchronized service discovery instead of joining or forming a cluster.
    public var unsynchronized: Bool
    /// Where the accessory stands on the simulated air, in metres.
    public var position: StationConfiguration.Position
    /// Overrides the NMI the profile gives or implies.
    public var address: MACAddress?
    /// Which start this is, counted in the state directory; nil without one.
    public var boot: Int?
    /// Where PINs come from: the CSPRNG, or the seed on the simulated air so runs replay.
    public var pinSource: PINSource

    public init(
        seed: UInt64 = 1,
        faults: Set<AccessoryFault> = [],
        unsynchronized: Bool = false,
        position: StationConfiguration.Position = .origin,
        address: MACAddress? = nil,
        boot: Int? = nil,
        pinSource: PINSource = .systemRandom
    ) {
        self.pinSource = pinSource
        self.boot = boot
        self.seed = seed
        self.faults = faults
        self.unsynchronized = unsynchronized
        self.position = position
        self.address = address
    }
}

// MARK: - AccessoryEvent

/// Something the accessory did or saw, as `accessory-emu` reports it: a line of text for
/// people, or one JSON object per line with an `event` key for scripts (docs/reference/events.md).
public struct AccessoryEvent: Sendable {
    /// The event's name, the value of its `event` key ("ready", "publish_started", ...).
    public var name: String
    /// When it happened on the accessory's clock.
    public var time: Instant
    /// The event's fields, in order.
    public var fields: [(String, JSONValue)]
    /// The line a person reads.
    public var text: String

    public init(name: String, time: Instant, fields: [(String, JSONValue)] = [], text: String) {
        self.name = name
        self.time = time
        self.fields = fields
        self.text = text
    }

    /// `{"event": name, "t": seconds, ...fields}`
    public var json: JSONValue {
        .object([("event", .string(name)), ("t", .double((time.seconds * 1e6).rounded() / 1e6))] + fields)
    }
}

// MARK: - AccessoryIdentity

/// The accessory's NAN Management Interface address: the profile's `radio.nmi`, or one
/// derived from `radio.nmiSeed` (else the run's seed) so that runs are reproducible.
enum AccessoryIdentity {
    /// A locally administered unicast address (first octet 0x02, IEEE 802 clause 8.2)
    /// whose other five octets come from `seed`.
    static func address(fromSeed seed: UInt64) -> MACAddress {
        var generator = SeededGenerator(seed: seed ^ 0x4E4D_4953_4545_4421)
        let value = generator.next()
        return MACAddress(
            0x02,
            UInt8(truncatingIfNeeded: value >> 32),
            UInt8(truncatingIfNeeded: value >> 24),
            UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value)
        )
    }
}
