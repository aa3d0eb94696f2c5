import AwareWire

extension SocketAir {
    /// Acts on a datagram from another process. Runs on the scheduler.
    func handle(_ datagram: SocketAirDatagram, from source: [UInt8]) {
        guard !isClosed else { return }
        switch datagram.type {
        case .frame: received(frame: datagram, from: source)
        case .txStatus: received(txStatus: datagram)
        case .event: received(event: datagram)
        default: counters.count(\.ignored)
        }
    }

    private func received(frame datagram: SocketAirDatagram, from source: [UInt8]) {
        counters.count(\.framesReceived)
        guard let channel = NANChannel(frequencyMHz: datagram.frequencyMHz) else { return }
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
            let status = SocketAirDatagram(
                type: .txStatus,
                flags: SocketAirDatagram.flagAcknowledged,
                frequencyMHz: datagram.frequencyMHz,
                signalDBm: 0,
                timestamp: MonotonicClock.unixNanoseconds(),
                cookie: datagram.cookie,
                address: receiver
            )
            if socket.send(status.bytes, to: source) == .sent {
                counters.count(\.acknowledgementsSent)
            } else {
                counters.count(\.sendFailures)
            }
        }

        guard let delay else {
            deliver(payload, on: channel, rssi: rssi, to: listeners)
            return
        }
        // Held back: acknowledged on time (the sender's radio did its part), delivered late.
        counters.count(\.impaired)
        wallClock.schedule(at: now + delay) { [weak self] in
            guard let self, !self.isClosed else { return }
            self.deliver(payload, on: channel, rssi: rssi, to: listeners)
        }
    }

    private func deliver(_ frame: [UInt8], on channel: NANChannel, rssi: Int, to listeners: [Port]) {
        let now = wallClock.now
        for tap in taps {
            tap.air(carried: frame, on: channel, signalDBm: rssi, at: now)
        }
        let reception = Reception(frame: frame, info: RxInfo(channel: channel, rssiDBm: rssi, timestamp: now))
        for port in listeners where port.attached {
            port.receive(reception)
        }
    }

    private func received(txStatus datagram: SocketAirDatagram) {
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
