import AwareCore
import AwareWire

extension SocketAir {
    /// Acts on a datagram from another process. Runs on the scheduler.
    func handle(_ datagram: SocketAirDatagram, from source: [UInt8]) {
        guard !isClosed else { return }
        switch datagram.type {
        case .frame: received(frame: datagram, from: source)
        case .txStatus: received(txStatus: datagram)
        case .event: received(event: datagram)
        case .clock: received(clock: datagram, from: source)
        default: ignored(datagram, because: "a datagram type this air does not use")
        }
    }

    /// Counts a well-formed datagram the air has no use for and says so at debug level, so that a
    /// stranger's datagrams leave a trace (`--log-level debug`) besides the count.
    private func ignored(_ datagram: SocketAirDatagram, because reason: String) {
        counters.count(\.ignored)
        logger.debug(
            "ignored a datagram",
            metadata: ["type": "\(datagram.type)", "from": "\(datagram.address)", "reason": "\(reason)"]
        )
    }

    /// Only the air's clock, bound at `PATH/.lockstep/clock`, admits and grants: a grant from any
    /// other socket (a process of the same user playing the clock) would let this process's virtual
    /// time run ahead of everyone else's (issue 21, finding 9). Off a lockstep air, nothing does.
    private func received(clock datagram: SocketAirDatagram, from source: [UInt8]) {
        guard isLockstep else {
            ignored(datagram, because: "a clock message on an air without lockstep")
            return
        }
        guard source == Array(LockstepClock.socketPath(in: path).utf8) else {
            ignored(
                datagram,
                because: "a clock message from \(String(decoding: source, as: UTF8.self)), not the air's clock"
            )
            return
        }
        switch LockstepMessage(datagram) {
        case .admit(let round, let horizon): wallClock.lockstepAdmitted(round: round, horizon: horizon)
        case .grant(let round, let horizon): wallClock.lockstepGranted(round: round, horizon: horizon)
        default: ignored(datagram, because: "not a clock message a participant acts on")
        }
    }

    private func received(frame datagram: SocketAirDatagram, from source: [UInt8]) {
        counters.count(\.framesReceived)
        guard isLockstep else {
            arrived(frame: datagram, from: source)
            return
        }
        // Lockstep: the frame takes effect at its virtual arrival time; a frame from a process
        // outside the lockstep has no place in virtual time and is dropped.
        guard datagram.carriesVirtualTime else {
            ignored(datagram, because: "a frame without virtual time on a lockstep air")
            return
        }
        wallClock.scheduleArrival(at: datagram.timestamp, sender: datagram.address, token: datagram.cookie) {
            [weak self] in
            self?.arrived(frame: datagram, from: source)
        }
    }

    private func arrived(frame datagram: SocketAirDatagram, from source: [UInt8]) {
        guard !isClosed, let channel = NANChannel(frequencyMHz: datagram.frequencyMHz) else { return }
        let now = wallClock.now
        if link?.inRange == false {
            counters.count(\.outOfRangeDropped)
            return
        }
        let rssi = datagram.signalIsRSSI ? Int(datagram.signalDBm) : (link?.rssiDBm ?? rssiDBm)
        var payload = datagram.payload
        var delay: Interval?
        if let impairer {
            switch impairer.impairment(of: payload, from: .remote, attempt: 1, at: now) {
            case .intact: break
            case .lost:
                // A sniffer here still hears it; no station of ours does, so nobody acknowledges.
                counters.count(\.impaired)
                for tap in taps { tap.air(carried: payload, on: channel, signalDBm: rssi, at: now) }
                return
            case .altered(let octets):
                counters.count(\.impaired)
                payload = octets
            }
            delay = impairer.holdBack(payload, from: .remote, at: now)
        }
        let listeners = ports.filter { $0.attached && $0.listeningChannels.contains(channel) }

        // Acknowledge before delivering: the sender's timeout runs while we deliver.
        if let receiver = Self.receiverAddress(of: datagram.payload),
            listeners.contains(where: { $0.station.addresses.contains(receiver) }), !source.isEmpty
        {
            // Lockstep: the ACK ends SIFS (16 µs) plus its own airtime at 6 Mb/s (44 µs) after
            // the frame (IEEE 802.11-2020 17.4.4, Table 17-21; 14 octets).
            let acknowledgedAt = now.nanoseconds + 60_000
            let status = SocketAirDatagram(
                type: .txStatus,
                flags: SocketAirDatagram.flagAcknowledged | (isLockstep ? SocketAirDatagram.flagVirtualTime : 0),
                frequencyMHz: datagram.frequencyMHz,
                signalDBm: 0,
                timestamp: isLockstep ? acknowledgedAt : MonotonicClock.unixNanoseconds(),
                cookie: datagram.cookie,
                address: receiver
            )
            if isLockstep { wallClock.lockstepOutput(arrivingAt: acknowledgedAt) }
            // The ACK waits as frames do: briefly, and only for a sender that is reading.
            switch send(status.bytes, to: source, waiting: true) {
            case .sent: counters.count(\.acknowledgementsSent)
            case .busy: counters.count(\.receiverQueueFull)
            case .sendBufferFull: counters.count(\.sendBufferFull)
            case .refused, .missing, .failed: counters.count(\.sendFailures)
            }
        }

        guard let delay else {
            deliver(payload, on: channel, rssi: rssi, to: listeners, sentAt: isLockstep ? now : airTime(of: datagram))
            return
        }
        // Held back: acknowledged on time (the sender's radio did its part), delivered late.
        counters.count(\.impaired)
        wallClock.schedule(at: now + delay) { [weak self] in
            guard let self, !self.isClosed else { return }
            self.deliver(payload, on: channel, rssi: rssi, to: listeners, sentAt: self.wallClock.now)
        }
    }

    /// When a frame from another process went on the air, on this process's clock. Its
    /// datagram's Timestamp is `CLOCK_REALTIME` when it was sent, the one clock the processes
    /// share: the time since then is taken off now. Stamping the reception when this process got
    /// round to reading it would add however long the datagram waited (milliseconds on a loaded
    /// host), and a NAN device that adopts a cluster's TSF from a beacon (Timestamp less arrival,
    /// nan-wire-reference.md 1.4) would count the data slots that much behind its peer, past the
    /// data plane's 1 ms guard (issue 14: 0.5 to 1.6 ms between a phone and the accessory whose
    /// cluster it joined). A Timestamp from the future or older than the acknowledgement timeout
    /// (a realtime clock stepped meanwhile, a participant that leaves it 0) says nothing: now.
    func airTime(of datagram: SocketAirDatagram) -> Instant {
        let now = wallClock.now
        let age = Int64(truncatingIfNeeded: MonotonicClock.unixNanoseconds() &- datagram.timestamp)
        guard age > 0, age <= acknowledgementTimeout.nanoseconds else { return now }
        return now + Interval(nanoseconds: -age)
    }

    private func deliver(_ frame: [UInt8], on channel: NANChannel, rssi: Int, to listeners: [Port], sentAt: Instant) {
        let now = wallClock.now
        for tap in taps {
            tap.air(carried: frame, on: channel, signalDBm: rssi, at: now)
        }
        let reception = Reception(frame: frame, info: RxInfo(channel: channel, rssiDBm: rssi, timestamp: sentAt))
        for port in listeners where port.attached {
            port.receive(reception)
        }
    }

    private func received(txStatus datagram: SocketAirDatagram) {
        guard isLockstep else {
            arrived(txStatus: datagram)
            return
        }
        guard datagram.carriesVirtualTime else {
            ignored(datagram, because: "a TX status without virtual time on a lockstep air")
            return
        }
        wallClock.scheduleArrival(at: datagram.timestamp, sender: datagram.address, token: datagram.cookie) {
            [weak self] in
            self?.arrived(txStatus: datagram)
        }
    }

    private func arrived(txStatus datagram: SocketAirDatagram) {
        guard let waiting = pending.removeValue(forKey: datagram.cookie) else {
            counters.count(\.unmatchedAcknowledgements)
            return
        }
        wallClock.cancel(waiting.timeout)
        counters.count(\.acknowledgementsReceived)
        if waiting.port.attached {
            waiting.port.transmitted(
                TxStatus(cookie: waiting.requestCookie, acknowledged: datagram.acknowledged, timestamp: wallClock.now)
            )
        }
    }
}
