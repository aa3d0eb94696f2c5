import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The phone's data paths (nan-wire-reference.md 4): it opens them as the NDP initiator with the
/// keys of its pairing, keeps what became of each request, and runs an app session
/// (``PhoneDataSession``) on each that comes up. Used on the air's scheduler.
public final class PhoneDataPaths {
    private unowned let device: NANDevice
    private unowned let pairing: PhonePairing
    let manager: DataPathManager
    let transport: AppTransport
    public private(set) var outcomes: [DataLinkID: DataPathOutcome] = [:]
    public private(set) var requests: [DataLinkID: PhoneDataPathRequest] = [:]
    public private(set) var sessions: [DataLinkID: PhoneDataSession] = [:]
    /// The accessory's data-path NAFs of each data path, in order, as they arrived (after the
    /// pairwise protection): what the conformance tests judge the accessory's frames by.
    public private(set) var receivedFrames: [DataLinkID: [ReceivedFrame]] = [:]
    /// The accessory's schedule NAFs (Schedule Request to Update Notification, subtypes 10-13)
    /// by its NMI, in order, as they arrived: what WA/NDP/BV-14 judges.
    public private(set) var receivedScheduleFrames: [MACAddress: [ReceivedFrame]] = [:]
    /// What became of each schedule renegotiation or announcement, in order.
    public private(set) var scheduleEvents: [DataLinkScheduleEvent] = []
    /// The last echo run on each data path (``startEcho(on:pattern:size:category:)``).
    public private(set) var echoRuns: [DataLinkID: PhoneEchoRun] = [:]
    /// How the phone lays out its proposals unless a request names a shape (`--proposal-shape`).
    public var proposalShape: NDPProposalShape = .basic
    private var nextNDPID: UInt8 = 1
    /// The phone answers Data Path Requests (``answerDataPaths(publishID:serviceName:)``).
    private var answersRequests = false
    private var nextDialogToken: UInt8 = 1
    private var generator: SeededGenerator
    var log: ((String, [String: JSONValue]) -> Void)?

    init(device: NANDevice, pairing: PhonePairing, seed: UInt64) {
        self.device = device
        self.pairing = pairing
        let nonces = NonceSource(seed: seed ^ 0x4E44_5050, seeded: true)
        generator = SeededGenerator(seed: seed ^ 0x4E44_504B)
        manager = DataPathManager(device: device, randomBytes: { nonces.bytes($0) })
        let hostNonces = NonceSource(seed: seed ^ 0x4950_7636, seeded: true)
        transport = AppTransport(host: IPv6Host(device: device, randomBytes: { hostNonces.bytes($0) }))
        manager.eventHandler = { [unowned self] event in self.handle(event) }
        manager.receivedFrameObserver = { [unowned self] id, frame in
            // Bounded: a setup takes four NAFs; an accessory that floods keeps the first ones.
            guard self.requests[id] != nil || self.answersRequests, self.receivedFrames[id, default: []].count < 64
            else { return }
            self.receivedFrames[id, default: []].append(frame)
        }
        transport.receiveHandler = { [unowned self] datagram in self.sessions[datagram.link]?.received(datagram) }
        transport.rawReceiveHandler = { [unowned self] delivery in self.sessions[delivery.link]?.receivedPlain(delivery)
        }
        transport.host.echoReplyObserver = { [unowned self] link, exchange in self.echoRuns[link]?.replied(exchange) }
        manager.receivedScheduleFrameObserver = { [unowned self] frame in
            guard self.receivedScheduleFrames[frame.transmitter, default: []].count < 64 else { return }
            self.receivedScheduleFrames[frame.transmitter, default: []].append(frame)
        }
        // The phone answers an accessory's Schedule Request within every slot of the NDL's
        // channel (DataPathManager's default), as it can do anything its radio can.
        manager.scheduleEventHandler = { [unowned self] event in
            self.scheduleEvents.append(event)
            self.log(event)
        }
    }

    /// The phone's IPv6 host on its data paths: neighbour discovery, echo, TCP probes.
    public var host: IPv6Host { transport.host }

    /// Starts sending echo requests on `link` (the last run there stops); nil when the data path
    /// is not up.
    @discardableResult
    public func startEcho(
        on link: DataLinkID,
        pattern: PhoneEchoRun.Pattern,
        size: Int,
        category: AccessCategory
    ) -> PhoneEchoRun? {
        guard host.peerAddress(of: link) != nil else { return nil }
        echoRuns[link]?.stop()
        // After the last run's numbers, so that a late reply to it is not taken for this one's.
        let first = echoRuns[link].map { $0.sequenceAfter &+ 1 } ?? 1
        let run = PhoneEchoRun(
            host: host,
            link: link,
            pattern: pattern,
            size: size,
            category: category,
            firstSequence: first
        )
        echoRuns[link] = run
        run.start()
        return run
    }

    /// Asks `accessory` to move the NDL (every data path with it) to `proposal` with a Schedule
    /// Request (NAF subtype 10); ``scheduleEvents`` says what became of it. false without a data
    /// path with the accessory, or while an exchange with it runs.
    /// With `qos`, the request asks for that performance mode's NDL QoS (a mode switch in the
    /// middle of a session, ``PerformanceMode/ndlQoS``).
    @discardableResult
    public func renegotiateSchedule(
        with accessory: MACAddress,
        proposal: NDPSchedule,
        qos: NDLQoSAttribute? = nil
    ) -> Bool {
        manager.renegotiateSchedule(with: accessory, proposal: proposal, qos: qos)
    }

    /// Tells `accessory` the phone commits to `committed` on the NDL from now on (Schedule Update
    /// Notification, NAF subtype 13); the phone's data paths with it run on it.
    @discardableResult
    public func notifyScheduleUpdate(to accessory: MACAddress, committed: NDPSchedule) -> Bool {
        manager.notifyScheduleUpdate(to: accessory, committed: committed)
    }

    /// The NDL dialog token of the last schedule exchange with `accessory`.
    public func scheduleDialogToken(with accessory: MACAddress) -> UInt8? {
        manager.scheduleDialogToken(with: accessory)
    }

    /// The schedule the phone's data paths with `accessory` run on.
    public func schedule(with accessory: MACAddress) -> NDPSchedule? { manager.schedule(with: accessory) }

    private func log(_ event: DataLinkScheduleEvent) {
        switch event {
        case .updated(let peer, let schedule, let byPeer):
            log?(
                "schedule_updated",
                [
                    "accessory": .string(peer.description), "byPeer": .bool(byPeer),
                    "slots": .array(schedule.slots.map { .unsigned(UInt64($0)) }),
                ]
            )
        case .failed(let peer, let failure, let byPeer):
            log?(
                "schedule_update_failed",
                [
                    "accessory": .string(peer.description), "byPeer": .bool(byPeer),
                    "detail": .string(failure.description),
                ]
            )
        case .notified(let peer, let schedule):
            log?(
                "schedule_notified",
                [
                    "accessory": .string(peer.description),
                    "slots": .array(schedule.slots.map { .unsigned(UInt64($0)) }),
                ]
            )
        }
    }

    /// Asks `request.accessory` for a data path and returns its ID; ``outcomes`` says what became
    /// of it. Each request uses a new NDP ID, as a new connection does.
    @discardableResult
    public func open(_ request: PhoneDataPathRequest) -> DataLinkID {
        let ndpID = nextNDPID
        nextNDPID = nextNDPID == 255 ? 1 : nextNDPID + 1
        let token = nextDialogToken
        nextDialogToken = nextDialogToken == 255 ? 1 : nextDialogToken + 1
        let id = DataLinkID(peerNMI: request.accessory, ndpID: ndpID)
        let security: NDPSecurity
        switch request.security {
        case .open: security = .open
        case .paired:
            if let keys = pairing.dataPathKeys[request.accessory] {
                security = .pairing(ndPMK: keys.ndPMK, suite: keys.suite)
            } else {
                // Not paired: what the phone would send if its app tried anyway.
                security = .pairing(ndPMK: randomBytes(32), suite: .ncsPKPASN128)
            }
        case .unpaired: security = .pairing(ndPMK: randomBytes(32), suite: .ncsPKPASN128)
        case .sharedKey(let value): security = value
        }
        requests[id] = request
        outcomes[id] = .pending
        let shape = request.shape ?? proposalShape
        let layout = shape.layout(
            base: request.proposal ?? NDPSchedule(mode: request.mode),
            style: NDPAvailabilityStyle()
        )
        let proposal = layout.proposal
        log?(
            "datapath_request",
            [
                "accessory": .string(request.accessory.description), "ndpID": .unsigned(UInt64(ndpID)),
                "mode": .string(request.mode.rawValue), "serviceClass": .string(request.serviceClass.rawValue),
                "security": .string("\(request.security)"),
                "proposal": .array(proposal.slots.map { .unsigned(UInt64($0)) }),
                "proposalShape": .string(shape.rawValue), "proposalPeriodTU": .unsigned(UInt64(proposal.periodTU)),
            ]
        )
        // The request goes out in the phone's cluster, A3 its Cluster ID: a phone still
        // scanning for one waits until it joins or forms it (DataPathManager.request).
        let own = device.configuration
        let usesNDPE = usesNDPE(with: request.accessory)
        let cachesKeys = pairing.options.cachesKeys
        manager.request(id) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: own.address,
                localNDI: own.dataInterfaceAddress,
                peerNMI: request.accessory,
                clusterID: clusterID,
                publishID: request.publishID,
                serviceID: ServiceID(serviceName: request.serviceName),
                security: security,
                proposal: proposal,
                // What the phone can do beyond its proposal: the realtime slots on its data
                // channel, or every slot there when the shape proposes elsewhere.
                potential: layout.proposedElsewhere
                    ? layout.potential : NDPSchedule(mode: .realtime, channel: proposal.channel),
                // hostap's single map is built from the proposal itself, byte for byte as before.
                proposalAttributes: shape == .basic ? nil : layout.attributes,
                qos: request.mode.ndlQoS,
                interfaceIdentifier: IPv6Address.interfaceIdentifier(from: own.dataInterfaceAddress),
                usesNDPE: usesNDPE,
                proposedNDC: request.proposedNDC,
                dialogToken: token,
                ndpID: ndpID,
                // After the Device Capability, the phone's DCEA, as hostap's phone sends in every
                // NAF (Fixtures/hostap-session-A frames 22 and 24).
                leadingAttributes: [
                    .deviceCapabilityExtension(
                        DeviceCapabilityExtensionAttribute(
                            pairingSetupEnabled: true,
                            npkNIKCachingEnabled: cachesKeys
                        )
                    )
                ],
                // The phone's HT/VHT capabilities, which a hostap accessory needs to keep the data path.
                elementContainer: .benchCapabilities
            )
        }
        return id
    }

    /// The reverse role: the phone answers Data Path Requests to its publish `publishID` of
    /// `serviceName` from accessories it paired with (their ND-PMK, nan-wire-reference.md 4.2),
    /// in either performance mode, offering every slot on its data channel. A request from an
    /// accessory it holds no pairing with is refused (reason 8, SECURITY_POLICY), as is one for
    /// another publish ID.
    public func answerDataPaths(publishID: UInt8, serviceName: String) {
        let own = device.configuration
        answersRequests = true
        manager.responderConfiguration = { [unowned self] peer, clusterID in
            var credentials: [MACAddress: NDPSecurity] = [:]
            if let keys = pairing.dataPathKeys[peer] {
                credentials[peer] = .pairing(ndPMK: keys.ndPMK, suite: keys.suite)
            }
            return NDPResponderConfiguration(
                localNMI: own.address,
                localNDI: own.dataInterfaceAddress,
                clusterID: clusterID,
                availability: NDPSchedule(mode: .realtime),
                interfaceIdentifier: IPv6Address.interfaceIdentifier(from: own.dataInterfaceAddress),
                policy: NDPResponderPolicy(
                    allowedSuites: [.ncsPKPASN128, .ncsPKPASN256],
                    toleratesModeMismatch: true
                ),
                credentials: credentials,
                serviceIDs: [publishID: ServiceID(serviceName: serviceName)],
                leadingAttributes: [
                    .deviceCapabilityExtension(
                        DeviceCapabilityExtensionAttribute(
                            pairingSetupEnabled: true,
                            npkNIKCachingEnabled: pairing.options.cachesKeys
                        )
                    )
                ],
                elementContainer: .benchCapabilities
            )
        }
    }

    /// Ends a data path with a Data Path Termination.
    public func terminate(_ id: DataLinkID) {
        sessions.removeValue(forKey: id)?.linkDropped()
        transport.detach(id)
        manager.terminate(id)
        outcomes[id] = .terminated(reason: .unspecifiedReason, byPeer: false)
    }

    /// Drops a data path without telling the accessory: the link went away under it.
    public func drop(_ id: DataLinkID) {
        sessions[id]?.linkDropped()
        sessions[id] = nil
        transport.detach(id)
        manager.forget(id)
        outcomes[id] = .terminated(reason: .unspecifiedReason, byPeer: false)
    }

    /// Ends every data path with a Termination (the phone's app closes its connections).
    public func terminateAll() {
        for (id, outcome) in outcomes where outcome.link != nil { terminate(id) }
    }

    /// What the phone's radio counted on a data path.
    public func statistics(_ id: DataLinkID) -> DataLinkStatistics? { device.dataLinkStatistics(id) }

    /// NDPE when both sides read it: the phone's own Device Capability and the accessory's
    /// (from its publish or NAFs; nan-wire-reference.md 2.6). An accessory that never said is
    /// sent NDPE, what an iPhone (NAN R4) writes.
    private func usesNDPE(with accessory: MACAddress) -> Bool {
        let own = device.deviceCapability?.ndpeAttributeSupported ?? true
        return own && (device.peerCapability(accessory)?.ndpeAttributeSupported ?? true)
    }

    /// The port the phone's app connects to on `link`: the one the accessory's Data Path Response
    /// named; without one, the request's (the profile's) when the request allows it, else none.
    /// Port 0 counts as none, as Android refuses it (`parseServiceInfoTlv`).
    private func servicePort(of link: NDPLink, request: PhoneDataPathRequest?) -> UInt16? {
        if let named = link.peerServiceInfo?.transportPort, named != 0 { return named }
        guard request?.fallsBackToServicePort ?? true else { return nil }
        return request?.servicePort ?? AppPorts.defaultService
    }

    private func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func handle(_ event: DataPathEvent) {
        switch event {
        case .established(let link):
            outcomes[link.id] = .established(link)
            if let configuration = device.dataLinks.first(where: { $0.id == link.id }) {
                transport.attach(
                    configuration,
                    localInterfaceID: IPv6Address.interfaceIdentifier(from: link.localNDI),
                    peerInterfaceID: link.peerInterfaceIdentifier
                )
            }
            let request = requests[link.id]
            let port = servicePort(of: link, request: request)
            sessions[link.id] = port.map { port in
                PhoneDataSession(
                    transport: transport,
                    link: link,
                    category: (request?.serviceClass ?? .bestEffort).accessCategory,
                    servicePort: port,
                    filePort: request?.filePort
                )
            }
            // What the accessory named (evidence for WA/NDP/BV-12) and the port the app uses.
            let named = link.peerServiceInfo
            log?(
                "datapath_established",
                [
                    "accessory": .string(link.peerNMI.description), "ndpID": .unsigned(UInt64(link.ndpID)),
                    "slots": .array(link.schedule.slots.map { .unsigned(UInt64($0)) }),
                    "csid": link.security.map { .unsigned(UInt64($0.rawValue)) } ?? .null,
                    "transportPort": named?.transportPort.map { .unsigned(UInt64($0)) } ?? .null,
                    "transportProtocol": named?.transportProtocol.map { .unsigned(UInt64($0)) } ?? .null,
                    "appPort": port.map { .unsigned(UInt64($0)) } ?? .null,
                ]
            )
        case .failed(let id, let failure):
            outcomes[id] = .failed(failure)
            log?(
                "datapath_failed",
                [
                    "accessory": .string(id.peerNMI.description), "ndpID": .unsigned(UInt64(id.ndpID)),
                    "reason": failure.reason.map { .unsigned(UInt64($0.rawValue)) } ?? .null,
                    "detail": .string(failure.description),
                ]
            )
        case .lost(let id):
            sessions.removeValue(forKey: id)?.linkDropped()
            transport.detach(id)
            outcomes[id] = .terminated(reason: .unspecifiedReason, byPeer: true)
            log?("datapath_lost", ["ndpID": .unsigned(UInt64(id.ndpID))])
        case .terminated(let id, let reason, let byPeer):
            sessions.removeValue(forKey: id)?.linkDropped()
            transport.detach(id)
            outcomes[id] = .terminated(reason: reason, byPeer: byPeer)
            log?(
                "datapath_terminated",
                [
                    "ndpID": .unsigned(UInt64(id.ndpID)), "reason": .unsigned(UInt64(reason.rawValue)),
                    "byPeer": .bool(byPeer),
                ]
            )
        }
    }
}

/// What the phone asks for when it opens a data path, as an app's `NetworkConnection`
/// parameters do (apple-peer-model.md 1.7): a performance mode, a service class, and how the
/// path is secured.
public struct PhoneDataPathRequest: Hashable, Sendable {
    /// How the phone secures the data path.
    public enum Security: Hashable, Sendable {
        /// With the ND-PMK of the phone's pairing with the accessory (what an iPhone does).
        case paired
        /// No security: an iPhone never asks for this; the bench does, to check the refusal.
        case open
        /// A secured request with an ND-PMK the accessory cannot know: a phone that never paired.
        case unpaired
        /// NCS-SK with a shared key (non-Apple profiles).
        case sharedKey(NDPSecurity)
    }

    public var accessory: MACAddress
    public var publishID: UInt8
    public var serviceName: String
    public var mode: PerformanceMode
    public var serviceClass: ServiceClass
    public var security: Security
    /// The schedule the phone proposes; nil proposes the mode's own (``NDPSchedule/init(mode:channel:)``).
    public var proposal: NDPSchedule?
    /// How the proposal is laid out on the air; nil takes the phone's (``PhoneDataPaths/proposalShape``,
    /// the run's `--proposal-shape`).
    public var shape: NDPProposalShape?
    /// The accessory's application port for this service as its profile says (`datapath.port`).
    /// The phone's app connects to the port the accessory's Data Path Response names
    /// (``NDPLink/peerServiceInfo``), as an Android subscriber takes it from
    /// `WifiAwareNetworkInfo.getPort`; this one only stands in when the response names none and
    /// ``fallsBackToServicePort`` allows it.
    public var servicePort: UInt16
    /// Use ``servicePort`` when the response names no port. Off, such a data path comes up
    /// without an app session: the phone has nothing to connect to (WA/NDP/BV-12).
    public var fallsBackToServicePort: Bool
    /// The accessory's file-service port, when it has one.
    public var filePort: UInt16?
    /// An NDC to propose in the request (nan-wire-reference.md 2.8); nil lets the accessory
    /// select one, as hostap's initiator does.
    public var proposedNDC: NDCSchedule?

    public init(
        accessory: MACAddress,
        publishID: UInt8,
        serviceName: String,
        mode: PerformanceMode = .bulk,
        serviceClass: ServiceClass = .bestEffort,
        security: Security = .paired,
        proposal: NDPSchedule? = nil,
        shape: NDPProposalShape? = nil,
        servicePort: UInt16 = AppPorts.defaultService,
        fallsBackToServicePort: Bool = true,
        filePort: UInt16? = nil,
        proposedNDC: NDCSchedule? = nil
    ) {
        self.proposedNDC = proposedNDC
        self.servicePort = servicePort
        self.fallsBackToServicePort = fallsBackToServicePort
        self.filePort = filePort
        self.accessory = accessory
        self.publishID = publishID
        self.serviceName = serviceName
        self.mode = mode
        self.serviceClass = serviceClass
        self.security = security
        self.proposal = proposal
        self.shape = shape
    }
}

/// Where one of the phone's data path requests stands.
public enum DataPathOutcome: Hashable, Sendable {
    case pending
    case established(NDPLink)
    case failed(NDPFailure)
    case terminated(reason: NANReasonCode, byPeer: Bool)

    public var link: NDPLink? {
        if case .established(let link) = self { link } else { nil }
    }

    /// The NAN reason code of a refusal or termination, when there was one.
    public var reason: NANReasonCode? {
        switch self {
        case .failed(let failure): failure.reason
        case .terminated(let reason, _): reason
        default: nil
        }
    }
}
