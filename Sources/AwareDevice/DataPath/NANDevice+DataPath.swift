import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

extension NANDevice {
    /// Starts carrying a data path whose setup finished: frames to the peer's NDI go out in the
    /// committed slots, protected with the NDP's TK, and frames from it are opened and handed
    /// to the ``dataReceiver``.
    public func openDataLink(_ configuration: DataLinkConfiguration) {
        let id = configuration.id
        if let old = dataPlane.links[id] {
            dropQueued(old)
            flushInFlight(of: id)
        }
        dataPlane.links[id] = DataPlane.Link(configuration: configuration)
        if !dataPlane.linkOrder.contains(id) { dataPlane.linkOrder.append(id) }
        updateDataListening()
        pumpData()
    }

    /// Moves an open data path to a renegotiated schedule: its frames wait for the new slots
    /// (queued frames stay queued), and the receiver listens in them.
    public func rescheduleDataLink(_ id: DataLinkID, to schedule: NDPSchedule) {
        guard let link = dataPlane.links[id] else { return }
        link.configuration.channel = schedule.channel
        link.configuration.slots = Set(schedule.slots)
        link.configuration.periodSlots = schedule.periodSlots
        link.windowValidUntil = nil
        if let wakeup = link.wakeup { scheduler.cancel(wakeup) }
        link.wakeup = nil
        link.wakeupTime = nil
        updateDataListening()
        pump(link)
    }

    /// Stops carrying a data path (terminated, or the peer went away); its queued frames are
    /// dropped. Returns what was counted on it.
    @discardableResult
    public func closeDataLink(_ id: DataLinkID) -> DataLinkStatistics? {
        guard let link = dataPlane.links.removeValue(forKey: id) else { return nil }
        dataPlane.linkOrder.removeAll { $0 == id }
        dropQueued(link)
        flushInFlight(of: id)
        updateDataListening()
        return statistics(of: link)
    }

    /// Forgets the frames of data path `id` that are in the radio's hands, as a driver flushes
    /// a peer's transmit queue when its data path ends: their air time no longer holds back the
    /// other data paths, and a TX status that still comes for one finds nothing (a data path
    /// opened again under the same NDIs must not count the old path's frames as its own). The
    /// data paths that waited for that air time are pumped again. Before this, a file transfer
    /// resumed on a new data path right after a termination could wait forever behind the old
    /// path's frames (WA/PERF/BV-06 on spawn, 1 run in 2).
    private func flushInFlight(of id: DataLinkID) {
        let stale = dataPlane.inFlight.filter { $0.value.pending.link == id }
        guard !stale.isEmpty else { return }
        for (cookie, flight) in stale {
            dataPlane.inFlight[cookie] = nil
            dataPlane.inFlightAirtime = dataPlane.inFlightAirtime - flight.airtime
        }
        let waiting = dataPlane.waitingForAirtime
        dataPlane.waitingForAirtime.removeAll()
        scheduler.schedule(at: now) { [weak self] in
            guard let self else { return }
            for other in waiting where other != id {
                if let link = self.dataPlane.links[other] { self.pump(link) }
            }
        }
    }

    private func dropQueued(_ link: DataPlane.Link) {
        for rank in link.queues.indices {
            dataPlane.queuedPerCategory[rank] -= link.queues[rank].count
            link.queues[rank] = DataPlane.FrameQueue()
            link.streams[rank] = []
        }
        if let wakeup = link.wakeup { scheduler.cancel(wakeup) }
        link.wakeup = nil
        link.wakeupTime = nil
    }

    public var dataLinks: [DataLinkConfiguration] {
        dataPlane.linkOrder.compactMap { dataPlane.links[$0]?.configuration }
    }

    /// What was counted on a data path; the frames its streams offered by now included.
    public func dataLinkStatistics(_ id: DataLinkID) -> DataLinkStatistics? {
        dataPlane.links[id].map { statistics(of: $0) }
    }

    private func statistics(of link: DataPlane.Link) -> DataLinkStatistics {
        var statistics = link.statistics
        for stream in link.streams.joined() { statistics.framesOffered += stream.offered(by: now) - stream.next }
        return statistics
    }

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
        guard let link = dataPlane.links[id] else { return false }
        link.statistics.framesOffered += 1
        guard dataPlane.queuedPerCategory[category.rank] < DataPlane.queueLimit else {
            link.statistics.framesOverflowed += 1
            return false
        }
        link.queues[category.rank].append(
            DataPlane.Pending(link: id, payload: payload, category: category, queuedAt: now, deadline: deadline)
        )
        dataPlane.queuedPerCategory[category.rank] += 1
        // A full hardware queue goes on when a TX status comes; a data path outside its window
        // when its wake-up (set for a window no later than its own) comes.
        guard link.inFlight < DataPlane.hardwareQueueDepth else { return true }
        if let wakeupTime = link.wakeupTime {
            let window = sendWindow(for: link)
            if window.openUntil == nil, let opening = window.nextOpening, wakeupTime <= opening { return true }
        }
        pump(link)
        return true
    }

    /// Offers a periodic stream on a data path whose frames are made only when they are about
    /// to go: frame `index` (0 to `count` - 1) is offered at `first + index × period`, queued
    /// in `category` behind what was queued before it, and dropped unmade once `lifetime` old
    /// (nil: never). `make` returns its MSDU. Nil when the link is unknown.
    @discardableResult
    public func offerDataStream(
        on id: DataLinkID,
        category: AccessCategory,
        first: Instant,
        period: Interval,
        count: Int,
        lifetime: Interval?,
        make: @escaping (_ index: Int, _ offeredAt: Instant) -> [UInt8]
    ) -> DataStreamID? {
        guard let link = dataPlane.links[id] else { return nil }
        let streamID = DataStreamID(link: id, value: dataPlane.nextStream)
        dataPlane.nextStream &+= 1
        link.streams[category.rank].append(
            DataPlane.Stream(
                id: streamID,
                category: category,
                first: first,
                period: period,
                count: count,
                lifetime: lifetime,
                make: make
            )
        )
        pump(link)
        return streamID
    }

    /// Stops a stream: frames it offered by now and did not send count as expired. Returns the
    /// frames it offered, nil when it was no longer there (its data path closed, or every frame
    /// of it went).
    @discardableResult
    public func cancelDataStream(_ id: DataStreamID) -> Int? {
        guard let link = dataPlane.links[id.link] else { return nil }
        for rank in link.streams.indices {
            guard let index = link.streams[rank].firstIndex(where: { $0.id == id }) else { continue }
            let stream = link.streams[rank].remove(at: index)
            let unsent = max(0, stream.offered(by: now) - stream.next)
            link.statistics.framesOffered += unsent
            link.statistics.framesExpired += unsent
            return stream.offered(by: now)
        }
        return nil
    }

    /// Frames queued on all data paths, not yet handed to the air (streams' frames not made yet
    /// not counted).
    public var queuedDataFrames: Int { dataPlane.queuedCount() }

    /// Frames of `id` handed to the air whose TX status has not come.
    public func dataFramesInFlight(_ id: DataLinkID) -> Int { dataPlane.links[id]?.inFlight ?? 0 }

    /// The pump's work so far: frames it looked at (sent, kept waiting or dropped) and its
    /// passes. For tests: the cost per frame stays constant however long the queues are.
    public var dataPumpWork: (framesExamined: Int, passes: Int) { (dataPlane.framesExamined, dataPlane.pumpPasses) }

    /// Fault injection: send data only in `slots` (for example the discovery-window slot 0,
    /// the defect of esp-idf #19066) whatever the committed schedule says; nil restores it.
    public var dataTransmitSlotsOverride: Set<Int>? {
        get { dataPlane.transmitSlotsOverride }
        set {
            dataPlane.transmitSlotsOverride = newValue
            for link in dataPlane.links.values { link.windowValidUntil = nil }
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

    /// How the committed slots of data path `id` fall on this device's clock; nil when the data
    /// path is unknown or this device does not know its cluster's time yet.
    public func dataSlotClock(for id: DataLinkID) -> DataSlotClock? {
        dataPlane.links[id].flatMap { slotClock(for: $0) }
    }

    /// A data path's slots count from its cluster's TSF (nan-wire-reference.md 2.7), on both
    /// sides, whichever of them anchors the cluster. A synchronized device carries the TSF of
    /// the cluster it is in: the one it formed (its own TSF timer) or joined (adopted from a
    /// beacon, 1.4). An unsynchronized device follows the cluster its data path's NAFs name
    /// (``HeardClusters``). Never this device's own clock: two devices' clocks agree only by
    /// chance, and a device that took its own for the cluster's listened in slots the peer does
    /// not send in (issue 14: against `accessory-emu --unsynchronized` only the frames that fell
    /// in the overlap got through).
    func slotClock(for link: DataPlane.Link) -> DataSlotClock? {
        let offset: Int64?
        if configuration.synchronization != nil {
            offset = cluster?.tsfOffsetMicroseconds
        } else if let own = dataPlane.ownSlotClockOffset {
            offset = own
        } else {
            offset = dataPlane.heardClusters.tsfOffset(of: link.configuration.clusterID)
        }
        return offset.map { DataSlotClock(tsfOffsetMicroseconds: $0, periodSlots: link.configuration.periodSlots) }
    }

    /// Fault injection: an unsynchronized device counts its data slots from its own TSF timer,
    /// which stands at this offset (µs) from the scheduler's clock, not from the TSF of the
    /// cluster its data paths are in. On the simulated air every station shares one clock, so
    /// the fault names the offset a real radio's own timer would have; nil follows the cluster.
    public var ownDataSlotClockOffset: Int64? {
        get { dataPlane.ownSlotClockOffset }
        set { dataPlane.ownSlotClockOffset = newValue }
    }

    /// The cluster this device's data path NAFs name in A3 and its data slots count from, for a
    /// data path with `peer` that this device asks for: the cluster it is in when synchronized
    /// (nil while it still scans, 1.4); when unsynchronized, the cluster it heard `peer` beacon
    /// in, else the cluster it heard last (nil before any beacon). Never its own NMI.
    public func dataPathCluster(initiatingWith peer: MACAddress) -> MACAddress? {
        guard configuration.synchronization == nil else { return cluster?.clusterID }
        return dataPlane.heardClusters.cluster(of: peer)
    }

    /// The cluster to answer a Data Path Request in whose A3 is `requested`: the cluster this
    /// device is in, or else the one the request names (an unsynchronized device, or one still
    /// scanning, follows it). nil when neither is a cluster: there is no TSF to count slots from.
    public func dataPathCluster(answering requested: MACAddress) -> MACAddress? {
        if configuration.synchronization != nil, let cluster { return cluster.clusterID }
        return requested.isClusterID ? requested : nil
    }

    /// A NAN beacon an unsynchronized device heard: the cluster's time, for the data paths that
    /// follow it (``HeardClusters``).
    func heardBeacon(_ beacon: NANBeacon, in frame: ReceivedFrame) {
        let clusterID = frame.frame.header.address3
        guard clusterID.isClusterID, frame.transmitter != configuration.address else { return }
        let followed = Set(dataPlane.links.values.map(\.configuration.clusterID))
        let changed = dataPlane.heardClusters.heard(
            clusterID: clusterID,
            transmitter: frame.transmitter,
            timestamp: beacon.timestamp,
            arrival: frame.info.timestamp,
            keeping: followed
        )
        if changed { dataClusterTimeChanged() }
    }

    /// The cluster's time became known or moved (this device formed or joined a cluster, or an
    /// unsynchronized device heard a beacon that set or corrected it): the receiver follows the
    /// new slot boundaries at once, waiting frames look at their windows again, and data path
    /// requests that waited for a cluster go.
    func dataClusterTimeChanged() {
        guard isStarted else { return }
        updateDataListening()
        pumpData()
        if let manager = dataPathManager { scheduler.schedule(at: now) { [weak manager] in manager?.clusterChanged() } }
    }

    /// Cancels the data plane's timers and forgets its frames (the device stops).
    func stopDataPlane() {
        for id in dataPlane.linkOrder { closeDataLink(id) }
        if let timer = dataPlane.listenTimer { scheduler.cancel(timer) }
        dataPlane.listenTimer = nil
        dataPlane.inFlight.removeAll()
        dataPlane.inFlightAirtime = .zero
        dataPlane.waitingForAirtime.removeAll()
        dataPlane.heardClusters = HeardClusters()
    }

    // MARK: - Sending

    /// The override (slots of a 512 TU period) repeats over a longer period.
    func transmitSlots(of link: DataPlane.Link) -> Set<Int> {
        guard let override = dataPlane.transmitSlotsOverride else { return link.configuration.slots }
        let period = link.configuration.periodSlots
        return Set(
            stride(from: 0, to: period, by: DataSlotClock.slotsPerPeriod).flatMap { base in override.map { base + $0 } }
        )
    }

    /// Pumps every data path, in the order they opened.
    func pumpData() {
        for id in dataPlane.linkOrder {
            if let link = dataPlane.links[id] { pump(link) }
        }
    }

    /// Hands `link`'s frames to the air while its hardware queue has room and its window is
    /// open, highest access category first, first in first out within one; drops the expired
    /// frames it meets at the heads; and sets the link's wake-up for its next window or its
    /// streams' next frame. Touches only this data path, and each frame once.
    func pump(_ link: DataPlane.Link) {
        guard isStarted else { return }
        guard !dataPlane.pumping else {
            // From inside another pass (an air or a handler calling back): after it.
            dataPlane.pumpAgain.append(link.configuration.id)
            return
        }
        dataPlane.pumping = true
        pass(link)
        while !dataPlane.pumpAgain.isEmpty {
            let id = dataPlane.pumpAgain.removeFirst()
            if let again = dataPlane.links[id] { pass(again) }
        }
        dataPlane.pumping = false
    }

    private func pass(_ link: DataPlane.Link) {
        dataPlane.pumpPasses += 1
        let window = sendWindow(for: link)
        var wake: Instant?
        sending: while link.inFlight < DataPlane.hardwareQueueDepth {
            guard let end = window.openUntil else {
                if link.hasWaitingFrames { wake = window.nextOpening }
                break
            }
            var streamDue: Instant?
            for rank in stride(from: link.queues.count - 1, through: 0, by: -1) {
                let (candidate, due) = head(of: link, rank: rank)
                if let due { streamDue = min(streamDue ?? due, due) }
                guard let candidate else { continue }
                guard fits(candidate.payloadLength, link: link, before: end) else {
                    // The head of the highest category with a frame does not fit in what is
                    // left of the window: nothing overtakes it; all wait for the next window,
                    // or for the radio to finish frames it holds, when it holds some.
                    wake = window.nextOpening
                    if dataPlane.inFlightAirtime > .zero, !dataPlane.waitingForAirtime.contains(link.configuration.id) {
                        dataPlane.waitingForAirtime.append(link.configuration.id)
                    }
                    break sending
                }
                transmit(take(candidate, from: link, rank: rank), on: link)
                continue sending
            }
            // Nothing to send now: wake for a stream's next frame, in this window or the next.
            if let streamDue { wake = streamDue < end ? streamDue : window.nextOpening }
            break
        }
        schedule(wakeup: wake, for: link)
    }

    /// What waits at the head of one of `link`'s categories: the older of the queue's head and
    /// the stream frame due first (dropping expired ones on the way), or when a stream's next
    /// frame will be due.
    private func head(of link: DataPlane.Link, rank: Int) -> (DataPlane.Candidate?, due: Instant?) {
        while let pending = link.queues[rank].first {
            dataPlane.framesExamined += 1
            guard let deadline = pending.deadline, deadline < now else { break }
            _ = link.queues[rank].removeFirst()
            dataPlane.queuedPerCategory[rank] -= 1
            link.statistics.framesExpired += 1
        }
        var best: DataPlane.Candidate? = link.queues[rank].first.map {
            DataPlane.Candidate(source: .queue, queuedAt: $0.queuedAt, payloadLength: $0.payload.count)
        }
        var due: Instant?
        var index = 0
        while index < link.streams[rank].count {
            let stream = link.streams[rank][index]
            let alive = stream.firstAlive(at: now)
            if alive > stream.next {
                link.statistics.framesOffered += alive - stream.next
                link.statistics.framesExpired += alive - stream.next
                stream.next = alive
            }
            if stream.finished {
                link.streams[rank].remove(at: index)
                continue
            }
            index += 1
            let offeredAt = stream.offeredAt(stream.next)
            guard offeredAt <= now else {
                due = min(due ?? offeredAt, offeredAt)
                continue
            }
            if best.map({ offeredAt < $0.queuedAt }) ?? true {
                best = DataPlane.Candidate(source: .stream(stream), queuedAt: offeredAt, payloadLength: 0)
            }
        }
        if var chosen = best, case .stream(let stream) = chosen.source {
            // Whether it fits is judged on the length of the stream's last frame: a frame is
            // made only when it goes (the first one, to learn the length).
            chosen.payloadLength = stream.lastLength ?? stream.madeHead().count
            best = chosen
        }
        return (best, due)
    }

    private func take(_ candidate: DataPlane.Candidate, from link: DataPlane.Link, rank: Int) -> DataPlane.Pending {
        switch candidate.source {
        case .queue:
            dataPlane.queuedPerCategory[rank] -= 1
            return link.queues[rank].removeFirst()
        case .stream(let stream):
            let index = stream.next
            let payload = stream.madeHead()
            stream.next += 1
            link.statistics.framesOffered += 1
            let offeredAt = stream.offeredAt(index)
            return DataPlane.Pending(
                link: link.configuration.id,
                payload: payload,
                category: stream.category,
                queuedAt: offeredAt,
                deadline: stream.lifetime.map { offeredAt + $0 }
            )
        }
    }

    private func schedule(wakeup: Instant?, for link: DataPlane.Link) {
        guard wakeup != link.wakeupTime else { return }
        if let work = link.wakeup { scheduler.cancel(work) }
        link.wakeup = nil
        link.wakeupTime = wakeup
        guard let wakeup else { return }
        let id = link.configuration.id
        link.wakeup = scheduler.schedule(at: wakeup) { [weak self] in
            guard let self, let link = self.dataPlane.links[id] else { return }
            link.wakeup = nil
            link.wakeupTime = nil
            self.pump(link)
        }
    }

    /// Whether `link`'s schedule lets a frame go now (and until when), or when it next will:
    /// windows open a guard time after their first slot starts and close a guard time before
    /// their last slot ends. Worked out again only when the last answer ran out.
    ///
    /// While the cluster's time is unknown (an unsynchronized device that heard no beacon of its
    /// data path's cluster yet) nothing goes: the frames wait for ``dataClusterTimeChanged()``.
    func sendWindow(for link: DataPlane.Link) -> DataPlane.SendWindow {
        guard let clock = slotClock(for: link) else {
            link.windowValidUntil = nil
            return DataPlane.SendWindow()
        }
        let offset = clock.tsfOffsetMicroseconds
        if let valid = link.windowValidUntil, now < valid, link.windowOffset == offset { return link.window }
        let window = sendWindow(slots: transmitSlots(of: link), clock: clock)
        link.window = window
        link.windowOffset = offset
        link.windowValidUntil = window.openUntil ?? window.nextOpening
        return window
    }

    private func sendWindow(slots: Set<Int>, clock: DataSlotClock) -> DataPlane.SendWindow {
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

    /// The air time of a frame of `payloadLength` octets at the link's rate.
    private func airtime(_ payloadLength: Int, link: DataPlane.Link) -> Interval {
        let rate = dataPlane.rateForSignal(link.statistics.lastSignalDBm)
        return OFDMRate(rate ?? .mbps6).airtime(frameLength: payloadLength + 26 + 16)
    }

    /// Whether the frame's airtime at the link's rate ends before the slot does, after the
    /// data frames already in the radio's hands (every data path's): a frame that would run past the slot waits for
    /// the next one, as a NAN device keeps its transmissions inside the committed schedule.
    private func fits(_ payloadLength: Int, link: DataPlane.Link, before slotEnd: Instant) -> Bool {
        now + dataPlane.inFlightAirtime + airtime(payloadLength, link: link) + .microseconds(100) <= slotEnd
    }

    private func transmit(_ pending: DataPlane.Pending, on link: DataPlane.Link) {
        let frame = QoSDataFrame(
            receiver: link.configuration.peerNDI,
            transmitter: link.configuration.localNDI,
            clusterID: link.configuration.clusterID,
            sequenceControl: SequenceControl(sequenceNumber: link.nextSequenceNumber),
            qosControl: QoSControl(tid: dataPlane.tidOverride ?? pending.category.tid),
            body: pending.payload
        )
        link.nextSequenceNumber = (link.nextSequenceNumber &+ 1) & 0x0FFF
        var octets = frame.wireBytes
        if let cipher = link.configuration.cipher, !dataPlane.sendsPlaintext {
            do throws(FrameProtectionError) {
                octets = try DataFrameProtection.protect(
                    octets,
                    key: link.configuration.key,
                    cipher: cipher,
                    packetNumber: link.nextPacketNumber
                )
                link.nextPacketNumber += 1
            } catch {
                // Only an exhausted packet-number space lands here: send nothing rather
                // than send in the clear.
                link.statistics.framesFailed += 1
                return
            }
        }
        let cookie = DataPlane.cookieBit | dataPlane.nextCookie
        dataPlane.nextCookie &+= 1
        let held = airtime(pending.payload.count, link: link) + DataPlane.perFrameOverhead
        dataPlane.inFlight[cookie] = DataPlane.InFlight(
            pending: pending,
            length: pending.payload.count,
            airtime: held,
            sentAt: now
        )
        link.inFlight += 1
        dataPlane.inFlightAirtime = dataPlane.inFlightAirtime + held
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
        dataPlane.inFlightAirtime = dataPlane.inFlightAirtime - flight.airtime
        guard let link = dataPlane.links[id] else {
            pumpWaitingForAirtime(except: id)
            return
        }
        link.inFlight -= 1
        if status.acknowledged {
            link.consecutiveFailures = 0
            link.statistics.framesDelivered += 1
            link.statistics.octetsDelivered += flight.length
            link.statistics.record(
                latency: status.timestamp - flight.pending.queuedAt,
                category: flight.pending.category
            )
        } else if flight.pending.attempts + 1 < DataPlane.attempts {
            // Not acknowledged: again, first in its category's queue. It goes with the next
            // sequence and packet numbers: frames sent after it were accepted with higher ones,
            // and a receiver drops a packet number at or below the last it accepted.
            var again = flight.pending
            again.attempts += 1
            link.queues[again.category.rank].prepend(again)
            dataPlane.queuedPerCategory[again.category.rank] += 1
        } else {
            link.statistics.framesFailed += 1
            if link.lastFailureCounted.map({ flight.sentAt >= $0 }) ?? true {
                link.consecutiveFailures += 1
                link.lastFailureCounted = now
            }
            if link.consecutiveFailures >= DataPlane.lostAfter {
                // The peer stopped acknowledging anything: it is gone (out of range, switched
                // off) and the data path with it (``DataPlane/lostAfter`` frames in a row failed
                // every attempt).
                closeDataLink(id)
                dataPathManager?.dataLinkLost(id)
                return
            }
        }
        pump(link)
        pumpWaitingForAirtime(except: id)
    }

    /// Pumps the data paths that waited for the radio's air time to free up.
    private func pumpWaitingForAirtime(except id: DataLinkID) {
        guard !dataPlane.waitingForAirtime.isEmpty else { return }
        let waiting = dataPlane.waitingForAirtime
        dataPlane.waitingForAirtime.removeAll()
        for other in waiting where other != id {
            if let waitingLink = dataPlane.links[other] { pump(waitingLink) }
        }
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
        link.statistics.lastSignalDBm = reception.info.rssiDBm
        var frame = header
        if let cipher = link.configuration.cipher {
            guard header.isProtected else {
                dataPlane.links[id]?.statistics.unprotectedDropped += 1
                delegate?.device(self, didNotify: .dataFrameDropped(id, reason: .unprotectedFromPairedPeer))
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
                    delegate?.device(self, didNotify: .dataFrameDropped(id, reason: .replay))
                    return
                }
                dataPlane.links[id]?.replay[header.tid] = counter
                guard let plain = try? QoSDataFrame(bytes: opened.frame) else { return }
                frame = plain
            } catch {
                dataPlane.links[id]?.statistics.authenticationFailures += 1
                delegate?.device(self, didNotify: .dataFrameDropped(id, reason: .authenticationFailed))
                return
            }
        } else if header.isProtected {
            return
        }
        dataPlane.links[id]?.statistics.framesReceived += 1
        dataPlane.links[id]?.statistics.octetsReceived += frame.body.count
        dataPlane.links[id]?.statistics.receivedTIDs[frame.tid, default: 0] += 1
        dataReceiver?.receive(DataDelivery(link: id, tid: frame.tid, payload: frame.body, info: reception.info))
    }

    // MARK: - The receiver on the data channel

    /// Tunes the receiver to the data channel for the slots of every open data path, on top
    /// of what synchronization asks (the discovery windows and the home channel): the bench
    /// models a dual-band radio that keeps its home channel while it serves a data path. The
    /// slots are those of each data path's cluster (``slotClock(for:)``); a data path whose
    /// cluster's time is not known yet keeps the receiver on its channel in every slot, so that
    /// a frame the peer sends in a committed slot finds it, until a beacon sets the slots.
    func updateDataListening() {
        if let timer = dataPlane.listenTimer {
            scheduler.cancel(timer)
            dataPlane.listenTimer = nil
        }
        guard isStarted else { return }
        var channels: Set<NANChannel> = []
        var nextBoundary: Instant?
        for link in dataPlane.links.values where !link.configuration.slots.isEmpty {
            guard let clock = slotClock(for: link) else {
                channels.insert(link.configuration.channel)
                continue
            }
            if link.configuration.slots.contains(clock.slot(at: now)) { channels.insert(link.configuration.channel) }
            let boundary = clock.nextSlotStart(after: now)
            nextBoundary = min(nextBoundary ?? boundary, boundary)
        }
        if channels != dataPlane.listeningOnData {
            dataPlane.listeningOnData = channels
            applyListening()
        }
        guard let nextBoundary else { return }
        dataPlane.listenTimer = scheduler.schedule(at: nextBoundary) { [weak self] in
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

/// What a device hands the MSDUs of its open data paths to (``NANDevice/dataReceiver``): its
/// ``AppTransport``. The device holds it weakly; its owner keeps it.
public protocol DataReceiver: AnyObject {
    func receive(_ delivery: DataDelivery)
}

extension AccessCategory {
    /// The EDCA parameters the air contends with for frames of this category.
    var channelAccess: ChannelAccess {
        ChannelAccess(aifsn: edca.aifsn, cwMin: edca.cwMin, cwMax: edca.cwMax)
    }
}
