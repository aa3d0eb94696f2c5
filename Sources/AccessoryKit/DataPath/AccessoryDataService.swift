import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The accessory's data side: it answers Data Path Requests as its profile says (only paired
/// phones, with the profile's cipher suites, in its performance mode, on its schedule), and runs
/// its application on every data path that comes up (``AccessoryAppSession``).
///
/// Policy (nan-wire-reference.md 2.11, 4.1): a request without security is refused with reason
/// SECURITY_POLICY (8) unless the profile allows open data paths; a secured request from a phone
/// that holds no pairing (no ND-PMK here) is refused with the same reason; a request in another
/// performance mode than the accessory's is refused with QoS_UNACCEPTABLE (9), since Apple
/// calls a mismatch undefined behaviour (apple-peer-model.md 1.7). A request from one phone more
/// than the profile's `radio.maxDataPathPeers` is refused with RESOURCE_LIMITATION (2); the
/// limit counts phones, not data paths, so a phone that holds an NDL may open more.
final class AccessoryDataService {
    let profile: AccessoryProfile
    let faults: Set<AccessoryFault>
    let device: NANDevice
    let manager: DataPathManager
    let transport: AppTransport
    /// The mode the accessory's listener runs in (apple-peer-model.md 1.7): the profile's
    /// default until changed.
    var mode: PerformanceMode {
        didSet { device.advertiseDataPaths(offering: availability(for: mode)) }
    }
    var sessions: [DataLinkID: AccessoryAppSession] = [:]
    /// Phones whose data path ended while the `ndp-stale-after-termination` fault is on.
    var staleLinks: Set<MACAddress> = []
    var emit: (String, [(String, JSONValue)], String) -> Void
    var pairingKeys: (MACAddress) -> (ndPMK: [UInt8], suite: NANSecurityCipherSuite)?
    var publishInstances: () -> [String: UInt8]
    private let nonces: NonceSource
    /// Data paths this accessory asked for (the reverse role), with the service each is for.
    var initiated: [DataLinkID: String] = [:]
    private var nextNDPID: UInt8 = 1
    private var nextDialogToken: UInt8 = 1

    init(
        profile: AccessoryProfile,
        faults: Set<AccessoryFault>,
        device: NANDevice,
        seed: UInt64,
        seeded: Bool,
        pairingKeys: @escaping (MACAddress) -> (ndPMK: [UInt8], suite: NANSecurityCipherSuite)?,
        publishInstances: @escaping () -> [String: UInt8],
        emit: @escaping (String, [(String, JSONValue)], String) -> Void
    ) {
        self.profile = profile
        self.faults = faults
        self.device = device
        self.pairingKeys = pairingKeys
        self.publishInstances = publishInstances
        self.emit = emit
        mode = profile.performance.defaultMode
        let nonces = NonceSource(seed: seed ^ 0x4E44_5053, seeded: seeded)
        self.nonces = nonces
        manager = DataPathManager(device: device, randomBytes: { nonces.bytes($0) })
        let hostNonces = NonceSource(seed: seed ^ 0x4950_7636, seeded: seeded)
        transport = AppTransport(host: IPv6Host(device: device, randomBytes: { hostNonces.bytes($0) }))
        manager.responderConfiguration = { [unowned self] peer, clusterID in
            self.responderConfiguration(for: peer, in: clusterID)
        }
        manager.eventHandler = { [unowned self] event in self.handle(event) }
        // A Schedule Request is judged against what the accessory offers in its mode now.
        manager.scheduleAvailability = { [unowned self] _ in self.availability(for: self.mode) }
        // A phone may switch an NDL between the modes the profile offers (apple-peer-model.md 1.7);
        // any other is refused with reason 9, as a Data Path Request in it is.
        manager.scheduleModes = { [unowned self] _ in
            var modes = profile.performance.supportedModes
            if faults.contains(.refuseModeSwitch) { modes = [self.mode] }
            if faults.contains(.acceptAnyModeSwitch) { modes = PerformanceMode.allCases }
            return Dictionary(uniqueKeysWithValues: modes.map { ($0, self.availability(for: $0)) })
        }
        manager.answersScheduleRequests = !faults.contains(.ignoreScheduleRequest)
        manager.scheduleEventHandler = { [unowned self] event in self.handle(event) }
        transport.receiveHandler = { [unowned self] datagram in self.sessions[datagram.link]?.received(datagram) }
        transport.speaksBenchProtocol = profile.app?.benchProtocol ?? false
        transport.rawReceiveHandler = { [unowned self] delivery in self.sessions[delivery.link]?.rawReceived(delivery) }
        // A standard stack: it answers neighbour discovery and echo, and accepts TCP on its `_tcp`
        // services' ports (docs/reference/profile-reference.md, app).
        transport.host.listeningTCPPorts = Self.tcpPorts(of: profile)
        transport.host.answersNeighborSolicitations = !faults.contains(.noNeighborAdvertisement)
        transport.host.answersEchoRequests = !faults.contains(.noEchoReply)
        if faults.contains(.closedTCPPort) { transport.host.listeningTCPPorts = [] }
        if faults.contains(.throttledStream) {
            // In bulk, echo replies limited to 50 a second with bursts of 16: pings and a steady
            // 20 Hz series are answered, a flood gets a fraction of what the schedule carries.
            transport.host.echoReplyLimit = { [unowned self] in
                self.mode == .bulk ? EchoReplyLimit(perSecond: 50, burst: 16) : nil
            }
        }
        if faults.contains(.plaintextData) { device.sendsPlaintextData = true }
        if faults.contains(.noDeviceCapability) { device.deviceCapability = nil }
        if faults.contains(.usdOwnSlotClock) {
            // Its own TSF timer, 5 slots and a bit off the cluster's: 5 x 16 TU + 3 ms.
            device.ownDataSlotClockOffset = 5 * 16 * 1_024 + 3_000
        }
        if faults.contains(.wrongTID) { device.dataTIDOverride = AccessCategory.background.tid }
        if faults.contains(.badKeyInstallMIC) || faults.contains(.nafAddressThreeOwnNMI) {
            let ownAddress = device.configuration.address
            manager.outboundFilter = { _, frame in
                var frame = frame
                if faults.contains(.nafAddressThreeOwnNMI), frame.count >= 22 {
                    // A3 (octets 16-21) is our NMI instead of the cluster ID the NAF is sent in.
                    frame.replaceSubrange(16..<22, with: ownAddress.octets)
                }
                return faults.contains(.badKeyInstallMIC) ? Self.corruptingKeyInstallMIC(frame) : frame
            }
        }
    }

    /// The ports a TCP listener runs on: each `_tcp` service's data-path port, and the port of
    /// each app part that runs on a `_tcp` service.
    static func tcpPorts(of profile: AccessoryProfile) -> Set<UInt16> {
        var ports: Set<UInt16> = []
        let tcpServices = profile.services.filter { $0.name.hasSuffix("._tcp") }
        for service in tcpServices {
            if let port = service.datapath?.port { ports.insert(UInt16(clamping: port)) }
        }
        let names = Set(tcpServices.map(\.name))
        let parts: [(service: String, port: Int?)] = [
            profile.app?.fileService.map { ($0.service, $0.port) },
            profile.app?.control.map { ($0.service, $0.port) },
            profile.app?.telemetry.map { ($0.service, $0.port) },
            profile.app?.audioStream.map { ($0.service, $0.port) },
        ].compactMap { $0 }
        for part in parts where names.contains(part.service) {
            if let port = part.port { ports.insert(UInt16(clamping: port)) }
        }
        return ports
    }

    /// The services that take data paths, by publish instance.
    var dataServices: [UInt8: ServiceProfile] {
        let instances = publishInstances()
        var result: [UInt8: ServiceProfile] = [:]
        for service in profile.services where service.datapath != nil {
            if let instance = instances[service.name] { result[instance] = service }
        }
        return result
    }

    /// The schedule the accessory offers in `mode` on the data channel (149, the preferred 5 GHz
    /// NAN channel, nan-wire-reference.md 1.4; the NAN Availability layout is 2.7).
    func availability(for mode: PerformanceMode) -> NDPSchedule {
        let offered: PerformanceMode = faults.contains(.realtimeAsBulk) ? .bulk : mode
        return NDPSchedule(mode: offered)
    }

    // MARK: - Answering requests

    /// What to answer a Data Path Request from `peer` with, in the cluster `clusterID` (the one
    /// the device is in, or the one the request names: ``NANDevice/dataPathCluster(answering:)``).
    func responderConfiguration(for peer: MACAddress, in clusterID: MACAddress) -> NDPResponderConfiguration? {
        if staleLinks.contains(peer) {
            emit(
                "datapath_request_ignored",
                [("peer", .string(peer.description)), ("reason", .string("stale-data-path"))],
                "ignored a data path request from \(peer): its last data path is still held (fault)"
            )
            return nil
        }
        if faults.contains(.singleDataPath), let other = manager.links.keys.first(where: { $0.peerNMI != peer }) {
            emit(
                "datapath_request_ignored",
                [("peer", .string(peer.description)), ("reason", .string("busy"))],
                "ignored a data path request from \(peer): serving \(other.peerNMI) (fault)"
            )
            return nil
        }
        let services = dataServices
        guard let first = services.values.first?.datapath else { return nil }
        let limit = profile.radio.maxDataPathPeers
        let served = manager.dataPathPeers
        let peerLimitReached = !served.contains(peer) && served.count >= limit ? limit : nil
        var suites: [NANSecurityCipherSuite] = []
        for service in services.values {
            for suite in service.datapath?.cipherSuites ?? [] {
                let value: NANSecurityCipherSuite = suite == .pasn256 ? .ncsPKPASN256 : .ncsPKPASN128
                if !suites.contains(value) { suites.append(value) }
            }
            if let shared = service.datapath?.sharedKey {
                let value: NANSecurityCipherSuite = shared.suite == .sk256 ? .ncsSK256 : .ncsSK128
                if !suites.contains(value) { suites.append(value) }
            }
        }
        var credentials: [MACAddress: NDPSecurity] = [:]
        if let keys = pairingKeys(peer) { credentials[peer] = .pairing(ndPMK: keys.ndPMK, suite: keys.suite) }
        var fallback: NDPSecurity?
        if let shared = first.sharedKey {
            let suite: NANSecurityCipherSuite = shared.suite == .sk256 ? .ncsSK256 : .ncsSK128
            switch shared.secret {
            case .passphrase(let text): fallback = .passphrase(text, suite: suite)
            case .pmk(let key): fallback = .pmk(key, suite: suite)
            }
        }
        if faults.contains(.acceptUnpairedDataPath), credentials[peer] == nil {
            // The fault: no check that the phone ever paired, nor of its ND-PMKID; the exchange
            // goes on with a key we make up instead of being refused.
            credentials[peer] = .pairing(ndPMK: nonces.bytes(32), suite: suites.first ?? .ncsPKPASN128)
        }
        let allowsOpen = services.values.contains { $0.datapath?.allowOpen == true }
        return NDPResponderConfiguration(
            localNMI: device.configuration.address,
            localNDI: device.configuration.dataInterfaceAddress,
            clusterID: clusterID,
            availability: availability(for: mode),
            interfaceIdentifier: IPv6Address.interfaceIdentifier(from: device.configuration.dataInterfaceAddress),
            // Each service's port and protocol, named in the Response to a request for it.
            transportInfo: services.compactMapValues { $0.transportInfo(faults: faults) },
            policy: NDPResponderPolicy(
                requiresSecurity: !(allowsOpen || faults.contains(.acceptOpenDataPath)),
                allowedSuites: suites.isEmpty ? [.ncsPKPASN128] : suites,
                expectedMode: mode,
                toleratesModeMismatch: faults.contains(.ignoreModeMismatch),
                counterProposes: !faults.contains(.noCounterProposal),
                checksPMKID: !faults.contains(.acceptUnpairedDataPath),
                selectsNDC: !faults.contains(.noSelectedNDC),
                followsPeerNDPESupport: !faults.contains(.alwaysNDPE),
                honoursProposedNDC: !faults.contains(.ignoreProposedNDC),
                readsEveryMap: !faults.contains(.firstMapOnly),
                keepsLongPeriods: !faults.contains(.foldLongPeriods),
                schedulesInConditional: !faults.contains(.ignoreConditional),
                peerLimitReached: peerLimitReached
            ),
            credentials: credentials,
            defaultCredential: fallback,
            serviceIDs: services.mapValues { ServiceID(serviceName: $0.name) },
            // After the device's Device Capability, the DCEA of a pairing accessory, as in every
            // NAF hostap's accessory sends (Fixtures/hostap-session-A frames 23 and 25).
            leadingAttributes: profile.pairing.map { pairing in
                [
                    .deviceCapabilityExtension(
                        DeviceCapabilityExtensionAttribute(
                            pairingSetupEnabled: true,
                            npkNIKCachingEnabled: pairing.cache.npk && pairing.cache.nik
                        )
                    )
                ]
            } ?? [],
            // Its HT/VHT capabilities: hostap's phone tears a data path down without them.
            elementContainer: faults.contains(.noElementContainer) ? nil : .benchCapabilities
        )
    }

    // MARK: - Asking for one (the reverse role)

    /// Asks `peer` for a data path to its publish `publishID` of `serviceName`, as the initiator:
    /// the accessory subscribed, paired with the publishing phone, and opens the connection
    /// (``AccessorySubscriber``). Secured with the pairing's ND-PMK (nan-wire-reference.md 4.2),
    /// proposing the schedule of the accessory's performance mode with its QoS. Without keys for
    /// `peer` (a fault asks anyway) the request goes with a key made up here, as an unpaired
    /// device's would, and the phone must refuse it.
    func openDataPath(to peer: MACAddress, publishID: UInt8, serviceName: String) {
        let ndpID = nextNDPID
        nextNDPID = nextNDPID == 255 ? 1 : nextNDPID + 1
        let token = nextDialogToken
        nextDialogToken = nextDialogToken == 255 ? 1 : nextDialogToken + 1
        let id = DataLinkID(peerNMI: peer, ndpID: ndpID)
        let security: NDPSecurity =
            pairingKeys(peer).map { .pairing(ndPMK: $0.ndPMK, suite: $0.suite) }
            ?? .pairing(ndPMK: nonces.bytes(32), suite: .ncsPKPASN128)
        initiated[id] = serviceName
        let proposal = availability(for: mode)
        emit(
            "datapath_requested",
            [
                ("peer", .string(peer.description)), ("ndpID", .unsigned(UInt64(ndpID))),
                ("publishID", .unsigned(UInt64(publishID))), ("service", .string(serviceName)),
                ("mode", .string(mode.rawValue)),
            ],
            "asking \(peer) for a data path to \(serviceName) (NDP \(ndpID), \(mode.rawValue))"
        )
        let own = device.configuration
        let ndpe =
            (device.deviceCapability?.ndpeAttributeSupported ?? true)
            && (device.peerCapability(peer)?.ndpeAttributeSupported ?? true)
        let cachesKeys = profile.pairing.map { $0.cache.npk && $0.cache.nik } ?? false
        let elementContainer: ElementContainerAttribute? =
            faults.contains(.noElementContainer) ? nil : .benchCapabilities
        let mode = self.mode
        manager.request(id) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: own.address,
                localNDI: own.dataInterfaceAddress,
                peerNMI: peer,
                clusterID: clusterID,
                publishID: publishID,
                serviceID: ServiceID(serviceName: serviceName),
                security: security,
                proposal: proposal,
                potential: proposal,
                qos: mode.ndlQoS,
                interfaceIdentifier: IPv6Address.interfaceIdentifier(from: own.dataInterfaceAddress),
                usesNDPE: ndpe,
                dialogToken: token,
                ndpID: ndpID,
                leadingAttributes: [
                    .deviceCapabilityExtension(
                        DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: cachesKeys)
                    )
                ],
                elementContainer: elementContainer
            )
        }
    }

    private func handle(_ event: DataPathEvent) {
        switch event {
        case .established(let link):
            let service = initiated[link.id] == nil ? dataServices[link.publishID] : nil
            let configuration = device.dataLinks.first { $0.id == link.id }
            if let configuration {
                transport.attach(
                    configuration,
                    localInterfaceID: IPv6Address.interfaceIdentifier(from: link.localNDI),
                    peerInterfaceID: link.peerInterfaceIdentifier
                )
            }
            if faults.contains(.discoveryWindowBursts), mode == .realtime {
                // esp-idf #19066: realtime data delivered only around the discovery window.
                device.dataTransmitSlotsOverride = [0]
            }
            let session = AccessoryAppSession(service: self, link: link, serviceProfile: service)
            sessions[link.id]?.close()
            sessions[link.id] = session
            emit(
                "datapath_established",
                [
                    ("peer", .string(link.peerNMI.description)), ("ndpID", .unsigned(UInt64(link.ndpID))),
                    ("csid", link.security.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                    ("mode", .string(mode.rawValue)),
                    ("slots", .array(link.schedule.slots.map { .unsigned(UInt64($0)) })),
                    ("periodTU", .unsigned(UInt64(link.schedule.periodTU))),
                    ("channel", .unsigned(UInt64(link.schedule.channel.number))),
                    ("bandwidthMHz", .unsigned(UInt64(link.schedule.bandwidthMHz))),
                    ("service", service.map { .string($0.name) } ?? initiated[link.id].map { .string($0) } ?? .null),
                    ("role", .string(initiated[link.id] == nil ? "responder" : "initiator")),
                ],
                "data path \(link.ndpID) with \(link.peerNMI) is up (\(mode.rawValue), "
                    + "\(link.schedule.slots.count) of \(link.schedule.periodSlots) slots on channel "
                    + "\(link.schedule.channel.number))"
            )
            session.start()
        case .failed(let id, let failure):
            emit(
                "datapath_refused",
                [
                    ("peer", .string(id.peerNMI.description)), ("ndpID", .unsigned(UInt64(id.ndpID))),
                    ("reason", failure.reason.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                    ("detail", .string(failure.description)),
                ],
                "data path with \(id.peerNMI) not set up: \(failure)"
            )
        case .lost(let id):
            sessions.removeValue(forKey: id)?.close()
            transport.detach(id)
            emit(
                "datapath_lost",
                [("peer", .string(id.peerNMI.description)), ("ndpID", .unsigned(UInt64(id.ndpID)))],
                "data path \(id.ndpID) with \(id.peerNMI) is gone: the phone stopped acknowledging"
            )
        case .terminated(let id, let reason, let byPeer):
            sessions.removeValue(forKey: id)?.close()
            transport.detach(id)
            if faults.contains(.staleDataPathAfterTermination) { staleLinks.insert(id.peerNMI) }
            emit(
                "datapath_terminated",
                [
                    ("peer", .string(id.peerNMI.description)), ("ndpID", .unsigned(UInt64(id.ndpID))),
                    ("reason", .unsigned(UInt64(reason.rawValue))), ("byPeer", .bool(byPeer)),
                ],
                "data path \(id.ndpID) with \(id.peerNMI) ended (reason \(reason.rawValue))"
            )
        }
    }

    func stop() {
        for (id, session) in sessions {
            session.close()
            manager.forget(id)
        }
        sessions.removeAll()
    }

    /// The `ndp-bad-m4-mic` fault: the last octet of a Key Installment's Key MIC flipped. The
    /// MIC sits right before the Key Data Length in the SKDA; flipping the frame's last MIC
    /// octet is done by finding the SKDA (attribute 0x24) and its fixed descriptor layout.
    static func corruptingKeyInstallMIC(_ frame: [UInt8]) -> [UInt8] {
        // NAF body: 24-octet header, category, action, OUI (3), type, subtype (offset 24+6).
        guard frame.count > 31, frame[30] == 8 else { return frame }
        var offset = 31
        var output = frame
        while offset + 3 <= frame.count {
            let id = frame[offset]
            let length = Int(frame[offset + 1]) | Int(frame[offset + 2]) << 8
            let body = offset + 3
            guard body + length <= frame.count else { break }
            // SKDA: Publish ID (1), then the EAPOL-Key descriptor: type (1), Key Information (2),
            // Key Length (2), Replay Counter (8), Nonce (32), IV (16), RSC (8), Reserved (8),
            // Key MIC; the MIC's first octet is at body + 1 + 77.
            if id == 0x24, length > 1 + 77 {
                output[body + 1 + 77] ^= 0xFF
                return output
            }
            offset = body + length
        }
        return frame
    }
}

extension AccessoryDataService {
    /// Asks every phone the accessory has a data path with to move the NDL to what `mode`
    /// offers (Schedule Request, NAF subtype 10); returns the phones asked. A phone with an
    /// exchange still running is skipped.
    func renegotiateSchedules(mode: PerformanceMode) -> [MACAddress] {
        let proposal = availability(for: mode)
        let peers = Set(manager.links.keys.map(\.peerNMI)).sorted { $0.octets.lexicographicallyPrecedes($1.octets) }
        return peers.filter { manager.renegotiateSchedule(with: $0, proposal: proposal, qos: mode.ndlQoS) }
    }

    func handle(_ event: DataLinkScheduleEvent) {
        switch event {
        case .updated(let peer, let schedule, let byPeer):
            emit(
                "schedule_updated",
                [
                    ("peer", .string(peer.description)),
                    ("slots", .array(schedule.slots.map { .unsigned(UInt64($0)) })),
                    ("periodTU", .unsigned(UInt64(schedule.periodTU))), ("byPeer", .bool(byPeer)),
                ],
                "the NDL with \(peer) runs on \(schedule.slots.count) slots per \(schedule.periodTU) TU now"
            )
        case .failed(let peer, let failure, let byPeer):
            emit(
                "schedule_update_failed",
                [
                    ("peer", .string(peer.description)),
                    ("reason", failure.reason.map { .unsigned(UInt64($0.rawValue)) } ?? .null),
                    ("detail", .string(failure.description)), ("byPeer", .bool(byPeer)),
                ],
                "the NDL with \(peer) keeps its schedule: \(failure)"
            )
        case .notified(let peer, let schedule):
            emit(
                "schedule_notified",
                [
                    ("peer", .string(peer.description)),
                    ("slots", .array(schedule.slots.map { .unsigned(UInt64($0)) })),
                    ("periodTU", .unsigned(UInt64(schedule.periodTU))),
                ],
                "\(peer) announced a new schedule: \(schedule.slots.count) slots per \(schedule.periodTU) TU"
            )
        }
    }
}
