import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

extension NANDevice {
    /// Starts carrying a data path whose setup finished: frames to the peer's NDI go out in the
    /// committed slots, protected with the NDP's TK, and frames from it are opened and handed
    /// to ``dataHandler``.
    public func openDataLink(_ configuration: DataLinkConfiguration) {
        dataPlane.links[configuration.id] = DataPlane.Link(configuration: configuration)
        updateDataListening()
        pumpData()
    }

    /// Stops carrying a data path (terminated, or the peer went away); its queued frames are
    /// dropped. Returns what was counted on it.
    @discardableResult
    public func closeDataLink(_ id: DataLinkID) -> DataLinkStatistics? {
        guard let link = dataPlane.links.removeValue(forKey: id) else { return nil }
        for category in AccessCategory.allCases {
            let head = dataPlane.queueHeads[category] ?? 0
            guard var queue = dataPlane.queues[category], head < queue.count else { continue }
            queue = Array(queue[head...]).filter { $0.link != id }
            dataPlane.queues[category] = queue
            dataPlane.queueHeads[category] = 0
        }
        updateDataListening()
        return link.statistics
    }

    public var dataLinks: [DataLinkConfiguration] { dataPlane.links.values.map(\.configuration) }

    public func dataLinkStatistics(_ id: DataLinkID) -> DataLinkStatistics? { dataPlane.links[id]?.statistics }

    /// Queues one MSDU (an LLC/SNAP-framed packet) for the data path. `deadline`: an
    /// unreliable frame still queued then is dropped, not sent late. Returns false when the
    /// link is unknown or the queue is full.
    @discardableResult
    public func sendData(
        _ payload: [UInt8],
        on id: DataLinkID,
        category: AccessCategory,
        deadline: Instant? = nil
    ) -> Bool {
        guard dataPlane.links[id] != nil else { return false }
        dataPlane.links[id]?.statistics.framesOffered += 1
        let head = dataPlane.queueHeads[category] ?? 0
        let waiting = (dataPlane.queues[category]?.count ?? 0) - head
        guard waiting < DataPlane.queueLimit else {
            dataPlane.links[id]?.statistics.framesOverflowed += 1
            return false
        }
        dataPlane.queues[category, default: []].append(
            DataPlane.Pending(link: id, payload: payload, category: category, queuedAt: now, deadline: deadline)
        )
        // A data path with a frame in the air's hands goes on when that frame's status comes;
        // one outside its window goes on when the pump's wake-up (already set for a window no
        // later than its own) comes. Either way the queues need no pass now.
        if dataPlane.inFlight.values.contains(where: { $0.pending.link == id }) { return true }
        if let wakeupTime = dataPlane.wakeupTime, let link = dataPlane.links[id] {
            let window = sendWindow(for: link, clock: dataSlotClock)
            if window.openUntil == nil, let opening = window.nextOpening, wakeupTime <= opening { return true }
        }
        pumpData()
        return true
    }

    /// Called when a data path's peer stopped acknowledging (``DataPlane/lostAfter`` frames in a
    /// row failed every attempt); the link is already closed.
    public var dataLinkLostHandler: ((DataLinkID) -> Void)? {
        get { dataPlane.lostHandler }
        set { dataPlane.lostHandler = newValue }
    }

    /// Frames queued on all data paths, not yet handed to the air.
    public var queuedDataFrames: Int { dataPlane.queuedCount() }

    /// Fault injection: send data only in `slots` (for example the discovery-window slot 0,
    /// the defect of esp-idf #19066) whatever the committed schedule says; nil restores it.
    public var dataTransmitSlotsOverride: Set<Int>? {
        get { dataPlane.transmitSlotsOverride }
        set {
            dataPlane.transmitSlotsOverride = newValue
            pumpData()
        }
    }

    /// Fault injection: send every data frame with this TID whatever its access category.
    public var dataTIDOverride: UInt8? {
        get { dataPlane.tidOverride }
        set { dataPlane.tidOverride = newValue }
    }

    /// The PHY rate data frames go out at, from the peer's last signal (nil: the air's
    /// default rate).
    public var dataRateSelection: ((Int?) -> TxRate?) {
        get { dataPlane.rateForSignal }
        set { dataPlane.rateForSignal = newValue }
    }

    /// Fault injection: send data frames in the clear on secured data paths.
    public var sendsPlaintextData: Bool {
        get { dataPlane.sendsPlaintext }
        set { dataPlane.sendsPlaintext = newValue }
    }

    /// How the slots of the cluster's schedules fall on this device's clock.
    var dataSlotClock: DataSlotClock {
        DataSlotClock(tsfOffsetMicroseconds: cluster?.tsfOffsetMicroseconds ?? 0)
    }

    // MARK: - Sending

    func transmitSlots(of link: DataPlane.Link) -> Set<Int> {
        dataPlane.transmitSlotsOverride ?? link.configuration.slots
    }

    /// Hands every frame that may go now to the air (one per data path), drops the expired
    /// ones, and sleeps until the next window opens for the rest. One pass over the queues; what
    /// a data path's schedule allows now is worked out once per path.
    func pumpData() {
        if let wakeup = dataPlane.wakeup {
            scheduler.cancel(wakeup)
            dataPlane.wakeup = nil
            dataPlane.wakeupTime = nil
        }
        guard isStarted else { return }
        // One frame per data path in the air's hands at a time, as a MAC queue per peer: a
        // peer that stopped acknowledging holds up only its own frames.
        var busy = Set(dataPlane.inFlight.values.map(\.pending.link))
        dataPlane.pumping = true
        defer { dataPlane.pumping = false }
        let clock = dataSlotClock
        var windows: [DataLinkID: DataPlane.SendWindow] = [:]
        var earliest: Instant?
        for category in AccessCategory.allCases.sorted(by: >) {
            guard let queue = dataPlane.queues[category] else { continue }
            let head = dataPlane.queueHeads[category] ?? 0
            guard head < queue.count else {
                dataPlane.queues[category] = []
                dataPlane.queueHeads[category] = 0
                continue
            }
            var kept: [DataPlane.Pending] = []
            kept.reserveCapacity(queue.count - head)
            for pending in queue[head...] {
                guard let link = dataPlane.links[pending.link] else { continue }
                if let deadline = pending.deadline, deadline < now {
                    dataPlane.links[pending.link]?.statistics.framesExpired += 1
                    continue
                }
                if busy.contains(pending.link) {
                    kept.append(pending)
                    continue
                }
                let window = windows[pending.link] ?? sendWindow(for: link, clock: clock)
                windows[pending.link] = window
                if let end = window.openUntil, fits(pending, link: link, before: end) {
                    busy.insert(pending.link)
                    transmit(pending, on: link)
                    continue
                }
                kept.append(pending)
                if let ready = window.nextOpening { earliest = min(earliest ?? ready, ready) }
            }
            dataPlane.queues[category] = kept
            dataPlane.queueHeads[category] = 0
        }
        if let earliest {
            dataPlane.wakeupTime = earliest
            dataPlane.wakeup = scheduler.schedule(at: earliest) { [weak self] in
                self?.dataPlane.wakeup = nil
                self?.dataPlane.wakeupTime = nil
                self?.pumpData()
            }
        }
    }

    /// Whether `link`'s schedule lets a frame go now (and until when), or when it next will:
    /// windows open a guard time after their first slot starts and close a guard time before
    /// their last slot ends.
    func sendWindow(for link: DataPlane.Link, clock: DataSlotClock) -> DataPlane.SendWindow {
        let slots = transmitSlots(of: link)
        guard let window = clock.window(atOrAfter: now, in: slots) else { return DataPlane.SendWindow() }
        let closes = window.end + Interval(nanoseconds: -DataPlane.guardTime.nanoseconds)
        guard window.start <= now else {
            return DataPlane.SendWindow(nextOpening: window.start + DataPlane.guardTime)
        }
        let opens = clock.windowStart(containing: now, in: slots) + DataPlane.guardTime
        if now < opens { return DataPlane.SendWindow(nextOpening: opens) }
        let following = clock.window(atOrAfter: window.end, in: slots).map { $0.start + DataPlane.guardTime }
        return DataPlane.SendWindow(openUntil: closes, nextOpening: following)
    }

    /// Whether the frame's airtime at the link's rate ends before the slot does: a frame
    /// that would run past the slot waits for the next one, as a NAN device keeps its
    /// transmissions inside the committed schedule.
    private func fits(_ pending: DataPlane.Pending, link: DataPlane.Link, before slotEnd: Instant) -> Bool {
        let rate = dataPlane.rateForSignal(link.statistics.lastSignalDBm)
        let octets = pending.payload.count + 26 + 16
        let airtime = OFDMRate(rate ?? .mbps6).airtime(frameLength: octets)
        return now + airtime + .microseconds(100) <= slotEnd
    }

    private func transmit(_ pending: DataPlane.Pending, on link: DataPlane.Link) {
        let id = pending.link
        let frame = QoSDataFrame(
            receiver: link.configuration.peerNDI,
            transmitter: link.configuration.localNDI,
            clusterID: link.configuration.clusterID,
            sequenceControl: SequenceControl(sequenceNumber: link.nextSequenceNumber),
            qosControl: QoSControl(tid: dataPlane.tidOverride ?? pending.category.tid),
            body: pending.payload
        )
        dataPlane.links[id]?.nextSequenceNumber = (link.nextSequenceNumber &+ 1) & 0x0FFF
        var octets = frame.wireBytes
        if let cipher = link.configuration.cipher, !dataPlane.sendsPlaintext {
            do throws(FrameProtectionError) {
                octets = try DataFrameProtection.protect(
                    octets,
                    key: link.configuration.key,
                    cipher: cipher,
                    packetNumber: link.nextPacketNumber
                )
                dataPlane.links[id]?.nextPacketNumber += 1
            } catch {
                // Only an exhausted packet-number space lands here: send nothing rather
                // than send in the clear.
                dataPlane.links[id]?.statistics.framesFailed += 1
                pumpData()
                return
            }
        }
        let cookie = DataPlane.cookieBit | dataPlane.nextCookie
        dataPlane.nextCookie &+= 1
        dataPlane.inFlight[cookie] = DataPlane.InFlight(pending: pending, length: pending.payload.count)
        var request = TxRequest(
            frame: octets,
            channel: link.configuration.channel,
            powerDBm: configuration.transmitPowerDBm,
            cookie: cookie
        )
        request.rate = dataPlane.rateForSignal(link.statistics.lastSignalDBm)
        request.access = pending.category.channelAccess
        transmitRaw(request)
    }

    /// The air's word on a data frame.
    func dataTransmitted(_ status: TxStatus) {
        // An air may report at once, from inside the pump's transmit: take it up after the pump.
        if dataPlane.pumping {
            scheduler.schedule(at: now) { [weak self] in self?.dataTransmitted(status) }
            return
        }
        guard let flight = dataPlane.inFlight.removeValue(forKey: status.cookie) else { return }
        let id = flight.pending.link
        if dataPlane.links[id] != nil {
            if status.acknowledged {
                dataPlane.links[id]?.consecutiveFailures = 0
                dataPlane.links[id]?.statistics.framesDelivered += 1
                dataPlane.links[id]?.statistics.octetsDelivered += flight.length
                dataPlane.links[id]?.statistics.record(
                    latency: status.timestamp - flight.pending.queuedAt,
                    category: flight.pending.category
                )
            } else if flight.pending.attempts + 1 < DataPlane.attempts {
                // Not acknowledged: again, first in its category's queue.
                var again = flight.pending
                again.attempts += 1
                let category = again.category
                let head = dataPlane.queueHeads[category] ?? 0
                dataPlane.queues[category, default: []].insert(again, at: head)
            } else {
                dataPlane.links[id]?.statistics.framesFailed += 1
                dataPlane.links[id]?.consecutiveFailures += 1
                if let failures = dataPlane.links[id]?.consecutiveFailures, failures >= DataPlane.lostAfter {
                    // The peer stopped acknowledging anything: it is gone (out of range, switched
                    // off) and the data path with it.
                    closeDataLink(id)
                    dataLinkLostHandler?(id)
                }
            }
        }
        pumpData()
    }

    // MARK: - Receiving

    /// A data frame heard on the air: find its data path by the NDIs, open it, check its
    /// packet number, hand the MSDU on.
    func dataReceived(_ reception: Reception) {
        guard let header = try? QoSDataFrame(bytes: reception.frame) else { return }
        guard
            let link = dataPlane.links.values.first(where: {
                $0.configuration.peerNDI == header.transmitter && $0.configuration.localNDI == header.receiver
            })
        else { return }
        let id = link.configuration.id
        dataPlane.links[id]?.statistics.lastSignalDBm = reception.info.rssiDBm
        var frame = header
        if let cipher = link.configuration.cipher {
            guard header.isProtected else {
                dataPlane.links[id]?.statistics.unprotectedDropped += 1
                notificationHandler?(.dataFrameDropped(id, reason: .unprotectedFromPairedPeer))
                return
            }
            do throws(FrameProtectionError) {
                let opened = try DataFrameProtection.unprotect(
                    reception.frame,
                    key: link.configuration.key,
                    cipher: cipher
                )
                var counter = link.replay[header.tid] ?? ReplayCounter()
                guard counter.accept(opened.packetNumber) else {
                    dataPlane.links[id]?.statistics.replaysDropped += 1
                    notificationHandler?(.dataFrameDropped(id, reason: .replay))
                    return
                }
                dataPlane.links[id]?.replay[header.tid] = counter
                guard let plain = try? QoSDataFrame(bytes: opened.frame) else { return }
                frame = plain
            } catch {
                dataPlane.links[id]?.statistics.authenticationFailures += 1
                notificationHandler?(.dataFrameDropped(id, reason: .authenticationFailed))
                return
            }
        } else if header.isProtected {
            return
        }
        dataPlane.links[id]?.statistics.framesReceived += 1
        dataPlane.links[id]?.statistics.octetsReceived += frame.body.count
        dataPlane.links[id]?.statistics.receivedTIDs[frame.tid, default: 0] += 1
        dataHandler?(DataDelivery(link: id, tid: frame.tid, payload: frame.body, info: reception.info))
    }

    // MARK: - The receiver on the data channel

    /// Tunes the receiver to the data channel for the slots of every open data path, on top
    /// of what synchronization asks (the discovery windows and the home channel): the bench
    /// models a dual-band radio that keeps its home channel while it serves a data path.
    func updateDataListening() {
        if let timer = dataPlane.listenTimer {
            scheduler.cancel(timer)
            dataPlane.listenTimer = nil
        }
        guard isStarted else { return }
        let clock = dataSlotClock
        let slot = clock.slot(at: now)
        var channels: Set<NANChannel> = []
        var allSlots: Set<Int> = []
        for link in dataPlane.links.values {
            allSlots.formUnion(link.configuration.slots)
            if link.configuration.slots.contains(slot) { channels.insert(link.configuration.channel) }
        }
        if channels != dataPlane.listeningOnData {
            dataPlane.listeningOnData = channels
            applyListening()
        }
        guard !allSlots.isEmpty else { return }
        dataPlane.listenTimer = scheduler.schedule(at: clock.nextSlotStart(after: now)) { [weak self] in
            self?.dataPlane.listenTimer = nil
            self?.updateDataListening()
        }
    }
}

/// An MSDU that arrived on a data path.
public struct DataDelivery: Hashable, Sendable {
    public var link: DataLinkID
    public var tid: UInt8
    /// The frame body after protection: LLC/SNAP header and packet.
    public var payload: [UInt8]
    public var info: RxInfo
}

extension AccessCategory {
    /// The EDCA parameters the air contends with for frames of this category.
    var channelAccess: ChannelAccess {
        ChannelAccess(aifsn: edca.aifsn, cwMin: edca.cwMin, cwMax: edca.cwMax)
    }
}
