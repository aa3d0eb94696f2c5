import AwareCore
import AwareWire
import Logging

extension SocketAir {
    /// Puts a frame on the air: to every other station of this process at once, and as one
    /// datagram to every other socket in the directory. Runs on the scheduler.
    func transmit(_ request: TxRequest, from sender: Port) {
        guard !isClosed else { return }
        let origin = FrameOrigin.local(name: sender.station.name)
        if let impairer, let delay = impairer.holdBack(request.frame, from: origin, at: wallClock.now) {
            counters.count(\.impaired)
            wallClock.schedule(at: wallClock.now + delay) { [weak self, sender] in
                guard let self, sender.attached, !self.isClosed else { return }
                self.send(request, from: sender)
            }
            return
        }
        send(request, from: sender)
    }

    private func send(_ request: TxRequest, from sender: Port) {
        var request = request
        let now = wallClock.now
        request.frame = request.frame(transmittedAt: now.nanoseconds)
        var lost = false
        if let impairer {
            let origin = FrameOrigin.local(name: sender.station.name)
            switch impairer.impairment(of: request.frame, from: origin, attempt: 1, at: now) {
            case .intact: break
            case .lost: lost = true
            case .altered(let octets):
                request.frame = octets
                counters.count(\.impaired)
            }
        }
        let cookie = nextCookie
        nextCookie &+= 1
        let receiver = Self.receiverAddress(of: request.frame)
        for tap in taps {
            tap.air(
                carried: request.frame,
                on: request.channel,
                signalDBm: request.powerDBm,
                rate: request.rate,
                at: now
            )
        }
        if lost || link?.inRange == false {
            // Nobody hears it; a unicast sender learns so the way it would in range: no ACK.
            counters.count(lost ? \.impaired : \.outOfRangeDropped)
            if receiver != nil {
                wallClock.schedule(at: now + acknowledgementTimeout) { [sender] in
                    if sender.attached {
                        sender.transmitted(TxStatus(cookie: request.cookie, acknowledged: false, timestamp: now))
                    }
                }
            } else {
                report(TxStatus(cookie: request.cookie, acknowledged: false, timestamp: now), to: sender)
            }
            return
        }
        // Lockstep: the frame reaches the others when its last octet does, at its own rate
        // (6 Mb/s when the sender left it open), never sooner than the clock's lookahead. A
        // radio sends one frame at a time: a frame handed over while the station's previous
        // one is still on the air starts when that one ends, so frames arrive in the order
        // they were sent (a receiver's replay check drops a packet number below the last).
        let airtime = UInt64(
            (request.rate.map(OFDMRate.init) ?? .mbps6).airtime(frameLength: request.frame.count).nanoseconds
        )
        let arrival = max(now.nanoseconds, isLockstep ? sender.busyUntil : 0) + airtime
        if isLockstep {
            sender.busyUntil = arrival
            wallClock.lockstepOutput(arrivingAt: arrival)
        }
        let datagram = SocketAirDatagram(
            type: .frame,
            flags: (link == nil ? 0 : SocketAirDatagram.flagSignalIsRSSI)
                | (isLockstep ? SocketAirDatagram.flagVirtualTime : 0),
            frequencyMHz: request.channel.frequencyMHz,
            signalDBm: Int8(clamping: link?.rssiDBm ?? request.powerDBm),
            timestamp: isLockstep ? arrival : MonotonicClock.unixNanoseconds(),
            cookie: cookie,
            address: Self.transmitterAddress(of: request.frame) ?? sender.station.addresses.first ?? Self.zeroAddress,
            payload: request.frame
        )
        // A receiver that is reading gets its frame late rather than never (``send(_:to:waiting:)``);
        // one that is not loses it at once.
        broadcast(datagram.bytes, waiting: true)
        counters.count(\.framesSent)

        let reception = Reception(
            frame: request.frame,
            info: RxInfo(channel: request.channel, rssiDBm: link?.rssiDBm ?? rssiDBm, timestamp: now)
        )
        var acknowledgedHere = false
        for port in ports where port !== sender && port.attached && port.listeningChannels.contains(request.channel) {
            if let receiver, port.station.addresses.contains(receiver) { acknowledgedHere = true }
            wallClock.schedule(at: now) { [port] in
                if port.attached { port.receive(reception) }
            }
        }

        guard receiver != nil, !acknowledgedHere else {
            report(TxStatus(cookie: request.cookie, acknowledged: acknowledgedHere, timestamp: now), to: sender)
            return
        }
        let timeout = wallClock.schedule(at: now + acknowledgementTimeout) { [weak self] in
            self?.acknowledgementTimedOut(cookie)
        }
        pending[cookie] = PendingAcknowledgement(port: sender, requestCookie: request.cookie, timeout: timeout)
    }

    /// Sends `bytes` to every other socket in the directory, removing those of dead processes.
    func broadcast(_ bytes: [UInt8], waiting: Bool) {
        for peer in SocketAirDirectory.peers(in: path, excluding: socket.path) {
            switch send(bytes, to: Array(peer.utf8), waiting: waiting) {
            case .sent, .missing:
                continue
            case .refused:
                if SocketAirDirectory.removeSocket(peer) {
                    counters.count(\.staleSocketsRemoved)
                    logger.info(
                        "removed the socket of a process that left the air",
                        metadata: ["socket": "\(peer)"]
                    )
                }
            case .busy:
                counters.count(\.receiverQueueFull)
                logger.debug("a peer's queue is full: it loses this datagram", metadata: ["socket": "\(peer)"])
            case .sendBufferFull:
                counters.count(\.sendBufferFull)
            case .failed(let code):
                counters.count(\.sendFailures)
                logger.debug(
                    "a peer did not take a datagram",
                    metadata: ["socket": "\(peer)", "error": "\(UnixDatagramSocket.errorText(code))"]
                )
            }
        }
    }

    /// One datagram to one peer. Without `waiting`, a full queue loses the datagram at once.
    /// With it, a full queue makes the datagram wait, but only for a peer that has been reading:
    /// one that let a whole wait run out (stopped, or never reading: a hostile socket in the
    /// directory) is not waited for again until it takes a datagram, so it costs one timeout,
    /// not one per frame (issue 21, finding 4: 1,000 frames at such a socket took an accessory
    /// from 12 frames/s to 0.2).
    ///
    /// Under the wall clock the wait is the ``SocketAirBacklog``'s, on its own thread: the caller
    /// (the scheduler, or the reader thread for a TX status) never waits, and `.sent` may mean
    /// queued. On a lockstep air the caller waits, up to the socket's timeout: the air waits for
    /// its slowest member anyway, and a grant must not pass a frame sent before it.
    func send(_ bytes: [UInt8], to peer: [UInt8], waiting: Bool) -> UnixDatagramSocket.SendResult {
        if waiting, let backlog, backlog.isBacklogged(peer) {
            return backlog.enqueue(bytes, for: peer) ? .sent : .busy
        }
        // A full send buffer refuses every peer alike; waiting on it would stall a thread for
        // each of them, so nothing waits until a send gets through again.
        let patient =
            waiting && !sendBufferWasFull.load(ordering: .relaxed) && !stalledPeers.withLock { $0.contains(peer) }
        let result = socket.send(bytes, to: peer, waiting: patient && backlog == nil)
        if result == .sendBufferFull {
            if !sendBufferWasFull.exchange(true, ordering: .relaxed) {
                logger.warning(
                    "the send buffer is full of datagrams peers have not read: frames to every peer are lost until they read or leave",
                    metadata: [
                        "unread": "\(socket.queuedOctets) octets", "buffer": "\(socket.sendBufferSize) octets",
                    ]
                )
            }
            return result
        }
        if result == .sent { sendBufferWasFull.store(false, ordering: .relaxed) }
        switch result {
        case .sent:
            stalledPeers.withLock { _ = $0.remove(peer) }
        case .busy where patient:
            if let backlog { return backlog.enqueue(bytes, for: peer) ? .sent : .busy }
            // The caller counts the one datagram lost here.
            peerStalled(peer, lost: 0)
        case .refused, .missing:
            stalledPeers.withLock { _ = $0.remove(peer) }
        case .busy, .sendBufferFull, .failed:
            break
        }
        return result
    }

    /// `peer` let a whole wait run out: it is not waited for (nor given a backlog) until it takes
    /// a datagram. `lost`: datagrams it lost that no caller counts (its backlog's).
    func peerStalled(_ peer: [UInt8], lost: Int) {
        stalledPeers.withLock { _ = $0.insert(peer) }
        if lost > 0 { counters.count(\.receiverQueueFull, by: lost) }
        logger.info(
            "a peer let a send wait out its timeout: it is not waited for until it reads again",
            metadata: ["socket": "\(String(decoding: peer, as: UTF8.self))", "lost": "\(lost)"]
        )
    }

    /// Reports a TX status on the scheduler, never from inside the caller's `transmit`.
    func report(_ status: TxStatus, to port: Port) {
        wallClock.schedule(at: wallClock.now) { [port] in
            if port.attached { port.transmitted(status) }
        }
    }

    private func acknowledgementTimedOut(_ cookie: UInt64, rechecks: Int = 0) {
        guard pending[cookie] != nil else { return }
        // The ACK may be here already, unhandled: posted by the reader thread behind this
        // timer, or still unread in the socket because the reader (or this whole process) was
        // not scheduled in time on a loaded host. The peer was not late; look again after
        // work already posted, then every millisecond while datagrams wait unread.
        if !isLockstep,
            rechecks == 0 || (rechecks < Self.acknowledgementRechecks && socket.waitReadable(milliseconds: 0))
        {
            let delay: Interval = rechecks == 0 ? .zero : .milliseconds(1)
            pending[cookie]?.timeout = wallClock.schedule(at: wallClock.now + delay) { [weak self] in
                self?.acknowledgementTimedOut(cookie, rechecks: rechecks + 1)
            }
            return
        }
        guard let waiting = pending.removeValue(forKey: cookie) else { return }
        counters.count(\.acknowledgementTimeouts)
        if waiting.port.attached {
            waiting.port.transmitted(
                TxStatus(cookie: waiting.requestCookie, acknowledged: false, timestamp: wallClock.now)
            )
        }
    }

    static let zeroAddress = MACAddress(0, 0, 0, 0, 0, 0)
    /// How many times (1 ms apart) a timed-out acknowledgement is looked for again while
    /// datagrams wait unread.
    static let acknowledgementRechecks = 200

    /// A1 of a frame, if it is an individual address: the station that must acknowledge.
    /// Frames too short to hold A1 are treated as group-addressed (nobody acknowledges).
    static func receiverAddress(of frame: [UInt8]) -> MACAddress? {
        guard frame.count >= 10, let address = MACAddress(frame[4..<10]), !address.isGroup else { return nil }
        return address
    }

    /// A2 of a frame (the transmitter), when the frame is long enough to have one.
    static func transmitterAddress(of frame: [UInt8]) -> MACAddress? {
        guard frame.count >= 16 else { return nil }
        return MACAddress(frame[10..<16])
    }
}
