import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// Runs the NDP machines of one device (nan-wire-reference.md 4): it starts initiators when its
/// owner asks (the phone), creates a responder for each Data Path Request that arrives (the
/// accessory), feeds them their frames, and opens the device's data link when one finishes
/// setup. The machines are pure; each runs in a ``MachineDriver`` of its own, which holds its
/// timers, and this is their edge. The device hands it its data-path NAFs, lost data
/// links and cluster changes (``NANDevice/dataPathManager``).
public final class DataPathManager {
    unowned let device: NANDevice
    private var initiators: [DataLinkID: MachineDriver<NDPInitiator>] = [:]
    private var responders: [DataLinkID: MachineDriver<NDPResponder>] = [:]
    /// Data path requests waiting for the device to be in a cluster, in the order they came.
    private var waiting: [WaitingRequest] = []
    private var randomBytes: (Int) -> [UInt8]
    /// The data paths that finished setup and have not ended.
    public internal(set) var links: [DataLinkID: NDPLink] = [:]
    /// The peers this device holds a data path with or is setting one up with, in either role:
    /// the peers it holds (or is negotiating) an NDL with (nan-wire-reference.md 4.1).
    public var dataPathPeers: Set<MACAddress> {
        Set(links.keys.map(\.peerNMI)).union(responders.keys.map(\.peerNMI)).union(initiators.keys.map(\.peerNMI))
    }
    /// For a Data Path Request from `peer`: what to answer it with, or nil to ignore it (a
    /// phone serves no requests). The accessory builds it from its profile and pairing store;
    /// `clusterID` is the cluster the answer goes in (A3 of its NAFs,
    /// ``NANDevice/dataPathCluster(answering:)``).
    public var responderConfiguration: ((_ peer: MACAddress, _ clusterID: MACAddress) -> NDPResponderConfiguration?)?
    /// Reports setups, failures and terminations.
    public var eventHandler: ((DataPathEvent) -> Void)?
    /// Sees each transmitted data-path NAF before it goes out; returning nil drops it. Faults.
    public var outboundFilter: ((DataLinkID, [UInt8]) -> [UInt8]?)?
    /// Sees each data-path NAF addressed to this device, as it arrived (after the pairwise
    /// protection), with the data path it belongs to: the runner judges the peer's frames.
    public var receivedFrameObserver: ((DataLinkID, ReceivedFrame) -> Void)?
    /// What this device can do on an NDL with `peer` when its schedule is renegotiated: a
    /// Schedule Request is accepted inside it and a counter-proposal taken only inside it. nil
    /// (or a nil answer) takes every slot of the NDL's channel.
    public var scheduleAvailability: ((_ peer: MACAddress) -> NDPSchedule?)?
    /// Our availability in each performance mode a peer may switch the NDL to with a Schedule
    /// Request (``NDLScheduleConfiguration/modeAvailability``); nil judges no mode.
    public var scheduleModes: ((_ peer: MACAddress) -> [PerformanceMode: NDPSchedule])?
    /// Answer Schedule Requests (NAF subtype 10); off (a fault switch) ignores them.
    public var answersScheduleRequests = true
    /// Reports renegotiated, refused and announced NDL schedules.
    public var scheduleEventHandler: ((DataLinkScheduleEvent) -> Void)?
    /// Sees each schedule NAF (subtypes 10-13) addressed to this device, with its transmitter.
    public var receivedScheduleFrameObserver: ((ReceivedFrame) -> Void)?
    /// What the NAFs of an established data path were sent with, for the NDL's schedule NAFs.
    var linkContexts: [DataLinkID: LinkContext] = [:]
    /// The schedule exchange running with each peer, at most one at a time.
    var scheduleRequesters: [MACAddress: MachineDriver<NDLScheduleRequester>] = [:]
    var scheduleResponders: [MACAddress: MachineDriver<NDLScheduleResponder>] = [:]
    /// The dialog token of the last schedule exchange with each peer, from either side.
    var scheduleDialogTokens: [MACAddress: UInt8] = [:]
    /// The dialog token of the last Schedule Request each peer sent that was answered: the same
    /// token again is that request again, not a new one.
    var peerScheduleTokens: [MACAddress: UInt8] = [:]

    public init(device: NANDevice, randomBytes: @escaping (Int) -> [UInt8]) {
        self.device = device
        self.randomBytes = randomBytes
        device.dataPathManager = self
    }

    /// Starts data path `id` as its initiator (the phone), in the device's cluster. Every NAF of
    /// a data path carries the Cluster ID as A3 (nan-wire-reference.md 1.3, 4.1) and its
    /// schedule counts from the cluster's TSF (2.7), so the Data Path Request goes out only
    /// once the device is in a cluster (``NANDevice/dataPathCluster(initiatingWith:)``): at once
    /// when it is, else when it forms or joins one (a synchronized device scans first, 1.4).
    /// `configuration` makes the machine's configuration for that cluster's ID; its peer and
    /// NDP ID must be those of `id`. Without a cluster within `timeLimit` (by default the time
    /// the request itself gets, every transmission of it) the data path fails with
    /// ``NDPFailure/Kind/noCluster`` and nothing was sent: a request with the device's own NMI
    /// as A3, which a phone once sent before it had formed its cluster (issue 14), names no
    /// cluster a peer can be in.
    public func request(
        _ id: DataLinkID,
        timeLimit: Interval = NDPRetransmission().timeLimit,
        configuration: @escaping (_ clusterID: MACAddress) -> NDPInitiatorConfiguration
    ) {
        stopMachine(id)
        cancelWaiting(id)
        if let clusterID = device.dataPathCluster(initiatingWith: id.peerNMI) {
            start(id, configuration(clusterID))
            return
        }
        let deadline = device.scheduler.schedule(at: device.now + timeLimit) { [weak self] in
            guard let self, self.waiting.contains(where: { $0.id == id }) else { return }
            self.waiting.removeAll { $0.id == id }
            self.eventHandler?(.failed(id, NDPFailure(.noCluster)))
        }
        waiting.append(WaitingRequest(id: id, configuration: configuration, deadline: deadline))
    }

    private func start(_ id: DataLinkID, _ configuration: NDPInitiatorConfiguration) {
        var configuration = configuration
        configuration.leadingAttributes = leadingAttributes(configuration.leadingAttributes)
        configuration.availabilityStyle.sequenceID = device.nextAvailabilitySequenceID()
        let machine = NDPInitiator(configuration: configuration, nonce: randomBytes(32))
        precondition(machine.id == id, "the configuration of \(id) names \(machine.id)")
        let driver = self.driver(machine, for: id, in: configuration.clusterID)
        initiators[id] = driver
        driver.perform(driver.machine.start(now: driver.now))
    }

    /// The device formed or joined a cluster, or its cluster's time moved: the requests whose
    /// device now has a cluster go, in the order they came.
    func clusterChanged() {
        let ready = waiting.compactMap { request in
            device.dataPathCluster(initiatingWith: request.id.peerNMI).map { (request, $0) }
        }
        for (request, clusterID) in ready {
            cancelWaiting(request.id)
            start(request.id, request.configuration(clusterID))
        }
    }

    private func cancelWaiting(_ id: DataLinkID) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        device.scheduler.cancel(waiting.remove(at: index).deadline)
    }

    /// A Data Path Request that waits for the device's cluster.
    private struct WaitingRequest {
        var id: DataLinkID
        var configuration: (MACAddress) -> NDPInitiatorConfiguration
        var deadline: ScheduledWork
    }

    /// Ends a data path, or gives up setting it up: a Data Path Termination goes out.
    public func terminate(_ id: DataLinkID, reason: NANReasonCode = .unspecifiedReason) {
        handle(.terminate(reason: reason), for: id)
        forget(id)
    }

    /// Forgets a data path without telling the peer (it went away, or a fault).
    public func forget(_ id: DataLinkID) {
        cancelWaiting(id)
        stopMachine(id)
        linkContexts[id] = nil
        if links.removeValue(forKey: id) != nil {
            device.closeDataLink(id)
            device.refreshDataPathAdvertisement()
            // The NDL is gone with its last data path, and any schedule exchange on it.
            if !links.keys.contains(where: { $0.peerNMI == id.peerNMI }) { forgetSchedule(with: id.peerNMI) }
        }
    }

    /// Every NAF starts with the device's Device Capability (nan-wire-reference.md 4.1: hostap
    /// writes it first in each NAF, and refuses a data path with a peer that sent none), then
    /// whatever the role adds (the DCEA).
    func leadingAttributes(_ given: [NANAttribute]) -> [NANAttribute] {
        let hasCapability = given.contains { if case .deviceCapability = $0 { true } else { false } }
        guard !hasCapability, let capability = device.deviceCapability else { return given }
        return [.deviceCapability(capability)] + given
    }

    // MARK: - From the device

    /// A NAF of the data-path exchange or of an NDL's schedule, addressed to this device.
    func received(_ frame: ReceivedFrame) {
        if case .nanAction(let action) = frame.frame.body, NDLScheduleMessage(action) != nil {
            receivedSchedule(action, frame: frame)
            return
        }
        guard case .nanAction(let action) = frame.frame.body, let ndpID = Self.ndpID(of: action) else { return }
        let id = DataLinkID(peerNMI: frame.transmitter, ndpID: ndpID)
        receivedFrameObserver?(id, frame)
        if action.subtype == .dataPathRequest {
            guard let responderConfiguration else { return }
            // The answer goes in the cluster the device is in, or else the one the request
            // names; a request that names none cannot be scheduled (no TSF to count slots from).
            guard let clusterID = device.dataPathCluster(answering: frame.frame.header.address3) else {
                eventHandler?(.failed(id, NDPFailure(.noCluster)))
                return
            }
            guard var configuration = responderConfiguration(frame.transmitter, clusterID) else { return }
            configuration.leadingAttributes = leadingAttributes(configuration.leadingAttributes)
            configuration.availabilityStyle.sequenceID = device.nextAvailabilitySequenceID()
            if configuration.ndcID == nil { configuration.ndcID = NDCSchedule.identifier(random: randomBytes(6)) }
            guard
                let machine = NDPResponder(
                    configuration: configuration,
                    request: action,
                    transmitter: frame.transmitter,
                    nonce: randomBytes(32),
                    now: device.now
                )
            else { return }
            // A new request for a data path we still hold: the peer started over (it rebooted,
            // or missed our termination); the old one is gone.
            if links[id] != nil || responders[id] != nil || initiators[id] != nil { forget(id) }
            let driver = self.driver(machine, for: id, in: machine.configuration.clusterID)
            responders[id] = driver
            driver.perform(machine.initialActions)
            return
        }
        handle(.received(action, transmitter: frame.transmitter), for: id)
    }

    /// The peer of data link `id` stopped acknowledging its frames; the device closed the link.
    func dataLinkLost(_ id: DataLinkID) {
        guard links[id] != nil else { return }
        forget(id)
        eventHandler?(.lost(id))
    }

    // MARK: - The machines

    private func handle(_ event: NDPEvent, for id: DataLinkID) {
        if let driver = initiators[id] {
            driver.handle(event)
        } else if let driver = responders[id] {
            driver.handle(event)
        }
    }

    /// A driver for data path `id`'s machine; `clusterID` is the cluster its NAFs go in, A3 of
    /// the data frames too (1.3).
    private func driver<Machine: ProtocolMachine>(
        _ machine: Machine,
        for id: DataLinkID,
        in clusterID: MACAddress
    ) -> MachineDriver<Machine> where Machine.Transmission == [UInt8], Machine.Notification == NDPNotification {
        MachineDriver(
            machine,
            scheduler: device.scheduler,
            transmit: { [weak self] frame in self?.transmit(frame, for: id) },
            notify: { [weak self] notification in self?.notified(notification, for: id, in: clusterID) }
        )
    }

    private func transmit(_ frame: [UInt8], for id: DataLinkID) {
        guard let frame = outboundFilter.map({ $0(id, frame) }) ?? frame else { return }
        device.transmitFrame(TxRequest(frame: frame, channel: device.homeChannel))
    }

    private func notified(_ notification: NDPNotification, for id: DataLinkID, in clusterID: MACAddress) {
        switch notification {
        case .established(let link):
            links[id] = link
            linkContexts[id] = context(of: id, in: clusterID)
            device.openDataLink(
                DataLinkConfiguration(
                    id: id,
                    localNDI: link.localNDI,
                    peerNDI: link.peerNDI,
                    clusterID: clusterID,
                    key: link.tk,
                    cipher: link.cipher,
                    channel: link.schedule.channel,
                    slots: Set(link.schedule.slots),
                    periodSlots: link.schedule.periodSlots
                )
            )
            device.refreshDataPathAdvertisement()
            eventHandler?(.established(link))
        case .failed(let failure):
            stopMachine(id)
            eventHandler?(.failed(id, failure))
        case .terminated(_, let reason, let byPeer):
            let wasOpen = links[id] != nil
            forget(id)
            if wasOpen || byPeer { eventHandler?(.terminated(id, reason: reason, byPeer: byPeer)) }
        }
    }

    /// The cluster, category and leading attributes of the machine that set `id` up.
    private func context(of id: DataLinkID, in clusterID: MACAddress) -> LinkContext {
        if let driver = initiators[id] {
            let configuration = driver.machine.configuration
            return LinkContext(
                clusterID: clusterID,
                category: configuration.category,
                leadingAttributes: configuration.leadingAttributes
            )
        }
        let machine = responders[id]?.machine
        return LinkContext(
            clusterID: clusterID,
            category: machine?.category ?? .publicAction,
            leadingAttributes: machine?.configuration.leadingAttributes ?? leadingAttributes([])
        )
    }

    /// Drops data path `id`'s machine, its timers disarmed.
    private func stopMachine(_ id: DataLinkID) {
        initiators.removeValue(forKey: id)?.stop()
        responders.removeValue(forKey: id)?.stop()
    }

    /// The NDP ID of the frame's NDP or NDPE attribute.
    static func ndpID(of frame: NANActionFrame) -> UInt8? {
        for attribute in frame.attributes {
            switch attribute {
            case .ndp(let ndp): return ndp.common.ndpID
            case .ndpExtension(let ndpe): return ndpe.common.ndpID
            default: continue
            }
        }
        return nil
    }
}

// MARK: - DataPathEvent

/// What a ``DataPathManager`` reports to its owner.
public enum DataPathEvent: Hashable, Sendable {
    /// Setup finished; the device carries the data path's frames from now on.
    case established(NDPLink)
    /// Setup failed; `peer` is the other side's NMI.
    case failed(DataLinkID, NDPFailure)
    /// The data path ended, by a Data Path Termination from either side.
    case terminated(DataLinkID, reason: NANReasonCode, byPeer: Bool)
    /// The peer stopped acknowledging data frames: the data path is gone without a Termination.
    case lost(DataLinkID)
}

// MARK: - DataLinkScheduleEvent

/// What a ``DataPathManager`` reports about the schedule of an established NDL with `peer`
/// (every data path with one peer shares it).
public enum DataLinkScheduleEvent: Hashable, Sendable {
    /// A renegotiation (Schedule Request / Response / Confirm) agreed on `schedule`; every data
    /// path with the peer runs on it now. `requestedByPeer` says who asked.
    case updated(peer: MACAddress, NDPSchedule, requestedByPeer: Bool)
    /// A renegotiation failed (rejected, refused or unanswered): the NDL keeps its schedule.
    case failed(peer: MACAddress, NDPFailure, requestedByPeer: Bool)
    /// The peer announced a new committed schedule (Schedule Update Notification); the NDL
    /// runs on the part of it this device can do.
    case notified(peer: MACAddress, NDPSchedule)
}

/// What a data path's NAFs were sent with: the NDL's schedule NAFs go the same way.
struct LinkContext {
    var clusterID: MACAddress
    var category: NANActionCategory
    var leadingAttributes: [NANAttribute]
}

// MARK: - NonceSource

/// Where a role's NDP nonces come from: the run's seed, so a run on the simulated air replays
/// bit for bit, or the system CSPRNG (the accessory on shared and real airs, like its PINs).
public final class NonceSource {
    private var generator: SeededGenerator
    private let seeded: Bool

    public init(seed: UInt64, seeded: Bool) {
        generator = SeededGenerator(seed: seed)
        self.seeded = seeded
    }

    public func bytes(_ count: Int) -> [UInt8] {
        if seeded { return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var system = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &system) }
    }
}
