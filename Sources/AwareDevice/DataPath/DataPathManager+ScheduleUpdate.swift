import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// Renegotiating or announcing the schedule of an established NDL (NAF subtypes 10-13). The
/// frames carry no NDP attribute, so they are routed by the peer's NMI and the NDL's dialog
/// token; one exchange runs per peer at a time, its machine in a ``MachineDriver``. A refused
/// exchange keeps the old schedule.
extension DataPathManager {
    /// Asks `peer` to move the NDL (every data path with it) to `proposal`: a Schedule Request
    /// goes out. false when there is no data path with the peer or an exchange is running.
    @discardableResult
    public func renegotiateSchedule(
        with peer: MACAddress,
        proposal: NDPSchedule,
        qos: NDLQoSAttribute? = nil
    ) -> Bool {
        guard scheduleRequesters[peer] == nil, scheduleResponders[peer].map({ $0.machine.isFinished }) ?? true,
            var configuration = scheduleConfiguration(with: peer)
        else { return false }
        configuration.qos = qos
        let token = (scheduleDialogTokens[peer] ?? 0) &+ 1
        scheduleDialogTokens[peer] = token == 0 ? 1 : token
        scheduleResponders[peer] = nil
        let machine = NDLScheduleRequester(
            configuration: configuration,
            proposal: proposal,
            dialogToken: scheduleDialogTokens[peer] ?? 1
        )
        let driver = scheduleDriver(machine, with: peer, requestedByPeer: false)
        scheduleRequesters[peer] = driver
        driver.perform(driver.machine.start(now: driver.now))
        return true
    }

    /// Tells `peer` that this device commits to `committed` on the NDL from now on (Schedule
    /// Update Notification, no answer) and runs the NDL's data paths on it. false without a
    /// data path with the peer.
    @discardableResult
    public func notifyScheduleUpdate(to peer: MACAddress, committed: NDPSchedule) -> Bool {
        guard let configuration = scheduleConfiguration(with: peer) else { return false }
        transmitSchedule(configuration.updateNotification(committed: committed), with: peer)
        apply(committed, ndc: configuration.ndc(for: committed), with: peer)
        return true
    }

    /// The NDL dialog token of the last schedule exchange with `peer`, from either side.
    public func scheduleDialogToken(with peer: MACAddress) -> UInt8? { scheduleDialogTokens[peer] }

    /// The schedule every data path with `peer` runs on, if there is one.
    public func schedule(with peer: MACAddress) -> NDPSchedule? {
        links.values.first { $0.peerNMI == peer }?.schedule
    }

    func receivedSchedule(_ action: NANActionFrame, frame: ReceivedFrame) {
        let peer = frame.transmitter
        guard links.values.contains(where: { $0.peerNMI == peer }) else { return }
        receivedScheduleFrameObserver?(frame)
        let event = NDLScheduleEvent.received(action, transmitter: peer)
        switch action.subtype {
        case .scheduleRequest:
            guard answersScheduleRequests else { return }
            // The request we answered, sent again: the same answer.
            if let responder = scheduleResponders[peer], !responder.handle(event).isEmpty { return }
            // Both sides asked at once: the device with the lower NMI keeps its request (the
            // peer gives way and answers it); the other answers the peer's instead.
            if scheduleRequesters[peer] != nil,
                device.configuration.address.octets.lexicographicallyPrecedes(peer.octets)
            {
                return
            }
            guard let configuration = scheduleConfiguration(with: peer),
                let machine = NDLScheduleResponder(
                    configuration: configuration,
                    request: action,
                    transmitter: peer,
                    previousDialogToken: peerScheduleTokens[peer],
                    now: device.now
                )
            else { return }
            if scheduleRequesters[peer] != nil {
                cancelScheduleTimers(peer)
                scheduleRequesters[peer] = nil
                scheduleEventHandler?(.failed(peer: peer, NDPFailure(.supersededByPeer), requestedByPeer: false))
            }
            peerScheduleTokens[peer] = machine.dialogToken
            scheduleDialogTokens[peer] = machine.dialogToken
            // A new request while an earlier one waits for its Confirm: the earlier one is over.
            scheduleResponders[peer]?.stop()
            let driver = scheduleDriver(machine, with: peer, requestedByPeer: true)
            scheduleResponders[peer] = driver
            driver.perform(machine.initialActions)
        case .scheduleResponse:
            if let requester = scheduleRequesters[peer] { requester.handle(event) }
        case .scheduleConfirm:
            if let responder = scheduleResponders[peer] { responder.handle(event) }
        case .scheduleUpdateNotification:
            notified(action, by: peer)
        default:
            return
        }
    }

    /// The peer commits to a new schedule (MediaTek takes a notification only for an
    /// established NDL, as here): the NDL runs on the part of it this device can do; a
    /// notification with nothing on the NDL's channel, or nothing we can do, changes nothing.
    private func notified(_ action: NANActionFrame, by peer: MACAddress) {
        guard let message = NDLScheduleMessage(action), let configuration = scheduleConfiguration(with: peer),
            let current = schedule(with: peer), let announced = message.schedule(on: current.channel),
            let common = configuration.availability.intersection(announced), !common.slots.isEmpty
        else { return }
        let ndc = message.ndc(on: common.channel).flatMap { common.contains($0.schedule) ? $0 : nil }
        apply(common, ndc: ndc ?? configuration.ndc(for: common), with: peer)
        scheduleEventHandler?(.notified(peer: peer, common))
    }

    /// The schedule NAF configuration for the NDL with `peer`, from its first data path.
    func scheduleConfiguration(with peer: MACAddress) -> NDLScheduleConfiguration? {
        guard let (id, link) = links.first(where: { $0.value.peerNMI == peer }), let context = linkContexts[id]
        else { return nil }
        let full = NDPSchedule(
            channel: link.schedule.channel,
            slots: Array(0..<NDPSchedule.slotsPerPeriod),
            bandwidthMHz: link.schedule.bandwidthMHz
        )
        var style = NDPAvailabilityStyle()
        style.sequenceID = device.nextAvailabilitySequenceID()
        var configuration = NDLScheduleConfiguration(
            localNMI: device.configuration.address,
            peerNMI: peer,
            clusterID: context.clusterID,
            category: context.category,
            availability: scheduleAvailability?(peer) ?? full,
            current: link.schedule,
            ndc: link.ndc,
            leadingAttributes: context.leadingAttributes,
            availabilityStyle: style
        )
        configuration.modeAvailability = scheduleModes?(peer) ?? [:]
        return configuration
    }

    /// A driver for a schedule exchange with `peer`; `requestedByPeer` says which side we are.
    private func scheduleDriver<Machine: ProtocolMachine>(
        _ machine: Machine,
        with peer: MACAddress,
        requestedByPeer: Bool
    ) -> MachineDriver<Machine> where Machine.Transmission == [UInt8], Machine.Notification == NDLScheduleNotification {
        MachineDriver(
            machine,
            scheduler: device.scheduler,
            transmit: { [weak self] frame in self?.transmitSchedule(frame, with: peer) },
            notify: { [weak self] notification in
                self?.scheduleNotified(notification, with: peer, requestedByPeer: requestedByPeer)
            }
        )
    }

    private func scheduleNotified(
        _ notification: NDLScheduleNotification,
        with peer: MACAddress,
        requestedByPeer: Bool
    ) {
        switch notification {
        case .agreed(let schedule, let ndc):
            scheduleRequesters[peer] = nil
            apply(schedule, ndc: ndc, with: peer)
            scheduleEventHandler?(.updated(peer: peer, schedule, requestedByPeer: requestedByPeer))
        case .failed(let failure):
            cancelScheduleTimers(peer)
            scheduleRequesters[peer] = nil
            scheduleEventHandler?(.failed(peer: peer, failure, requestedByPeer: requestedByPeer))
        }
    }

    /// Drops every schedule exchange with `peer` (its NDL is gone).
    func forgetSchedule(with peer: MACAddress) {
        cancelScheduleTimers(peer)
        scheduleRequesters[peer] = nil
        scheduleResponders[peer] = nil
    }

    /// Disarms the timers of the schedule exchanges with `peer`.
    private func cancelScheduleTimers(_ peer: MACAddress) {
        scheduleRequesters[peer]?.stop()
        scheduleResponders[peer]?.stop()
    }

    private func transmitSchedule(_ frame: [UInt8], with peer: MACAddress) {
        let id = links.keys.filter { $0.peerNMI == peer }.min { $0.ndpID < $1.ndpID }
        if let id, let filter = outboundFilter {
            guard let filtered = filter(id, frame) else { return }
            device.transmitFrame(TxRequest(frame: filtered, channel: device.homeChannel))
            return
        }
        device.transmitFrame(TxRequest(frame: frame, channel: device.homeChannel))
    }

    /// Every data path with `peer` runs on `schedule` from now on; the SDFs advertise it.
    private func apply(_ schedule: NDPSchedule, ndc: NDCSchedule?, with peer: MACAddress) {
        for (id, var link) in links where link.peerNMI == peer {
            link.schedule = schedule
            link.ndc = ndc
            links[id] = link
            device.rescheduleDataLink(id, to: schedule)
        }
        device.refreshDataPathAdvertisement()
    }
}
