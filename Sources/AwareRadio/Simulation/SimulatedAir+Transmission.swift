import AwareCore
import AwareWire

extension SimulatedAir {
    /// Puts the current frame of `port` on the air at `time`.
    func begin(_ port: Port, on medium: ChannelMedium, at time: UInt64) {
        guard var current = port.current else { return }
        current.attempts += 1
        port.current = current
        var frame = current.request.frame(transmittedAt: time)
        if current.attempts > 1 {
            counters.retransmissions += 1
            // Frame Control flags octet, Retry bit (IEEE 802.11-2020 9.2.4.1.7).
            if configuration.marksRetransmissions, frame.count >= 2 { frame[1] |= 0x08 }
        }
        counters.transmissions += 1
        var impaired = false
        if let impairer {
            let origin = FrameOrigin.local(name: port.station.name)
            switch impairer.impairment(
                of: frame,
                from: origin,
                attempt: current.attempts,
                at: Instant(nanoseconds: time)
            )
            {
            case .intact: break
            case .lost:
                impaired = true
                counters.impairedTransmissions += 1
            case .altered(let octets):
                frame = octets
                counters.impairedTransmissions += 1
            }
        }
        let rate = phyRate(of: current.request)
        let airtime = rate.airtime(frameLength: frame.count).nanoseconds
        medium.airtime += airtime
        let end = time + UInt64(airtime)
        let isGroup = isGroupAddressed(frame)
        let intended = isGroup || frame.count < 10 ? nil : addressOwners[Self.key(of: frame[4..<10])]
        let transmission = Transmission(
            sender: port.index,
            frame: frame,
            medium: medium.index,
            start: time,
            end: end,
            powerDBm: current.request.powerDBm,
            intended: intended,
            isGroupAddressed: isGroup,
            ackRate: current.request.rate.map { OFDMRate($0).controlResponseRate } ?? configuration.ackRate
        )
        if current.request.rate != nil { transmission.ackTxRate = transmission.ackRate.txRate }
        let power = Double(current.request.powerDBm)
        let sensitivity = configuration.sensitivityDBm
        for other in ports where other !== port && other.attached && !other.transmitting && other.listens(to: medium) {
            let signal = power - pathLoss(from: port, to: other.index, medium: medium)
            guard signal >= sensitivity else { continue }
            transmission.receivers.append(other.index)
            transmission.signals.append(signal)
        }
        transmission.outcomes = Array(repeating: impaired ? .impaired : .intact, count: transmission.receivers.count)

        // Half duplex: a station that starts sending hears nothing else meanwhile.
        for other in media {
            for ongoing in other.inFlight {
                if let position = ongoing.receiverPosition(port.index) { ongoing.outcomes[position] = .missed }
            }
        }
        for ongoing in medium.inFlight { overlap(ongoing, transmission) }
        port.transmitting = true
        medium.inFlight.append(transmission)
        medium.busyUntil = max(medium.busyUntil, end)

        for (tap, position) in taps {
            let distance = port.station.position.distance(to: position)
            let frequency = Double(medium.channel.frequencyMHz)
            let signal = power - configuration.pathLoss.loss(distance: distance, frequencyMHz: frequency)
            tap.air(
                carried: frame,
                on: medium.channel,
                signalDBm: Int(signal.rounded()),
                rate: current.request.rate,
                at: Instant(nanoseconds: time)
            )
        }
        virtualScheduler.schedule(at: Instant(nanoseconds: end)) { [weak self] in
            self?.end(transmission)
        }
    }

    /// The frame's own rate, or the air's when the sender left it open.
    func phyRate(of request: TxRequest) -> OFDMRate {
        request.rate.map(OFDMRate.init) ?? configuration.rate
    }

    /// Two frames on one channel overlap: each receiver that hears both loses both, unless
    /// the capture threshold lets the stronger through.
    func overlap(_ first: Transmission, _ second: Transmission) {
        if !first.collided { counters.collisions += 1 }
        if !second.collided { counters.collisions += 1 }
        first.collided = true
        second.collided = true
        var i = 0
        var j = 0
        while i < first.receivers.count, j < second.receivers.count {
            if first.receivers[i] < second.receivers[j] {
                i += 1
            } else if first.receivers[i] > second.receivers[j] {
                j += 1
            } else {
                let margin = first.signals[i] - second.signals[j]
                if let threshold = configuration.captureThresholdDB, margin >= threshold {
                    if second.outcomes[j] == .intact { second.outcomes[j] = .collided }
                } else if let threshold = configuration.captureThresholdDB, -margin >= threshold {
                    if first.outcomes[i] == .intact { first.outcomes[i] = .collided }
                } else {
                    if first.outcomes[i] == .intact { first.outcomes[i] = .collided }
                    if second.outcomes[j] == .intact { second.outcomes[j] = .collided }
                }
                i += 1
                j += 1
            }
        }
    }

    /// The last octet of `transmission` arrives: receivers get it, the sender learns its fate.
    func end(_ transmission: Transmission) {
        let medium = media[transmission.medium]
        medium.inFlight.removeAll { $0 === transmission }
        let sender = ports[transmission.sender]
        sender.transmitting = false
        let arrival = Instant(nanoseconds: transmission.end)

        var deliveries: [(Port, Reception)] = []
        var intendedHeard = false
        for (position, index) in transmission.receivers.enumerated() {
            let receiver = ports[index]
            guard receiver.attached, receiver.listens(to: medium), transmission.outcomes[position] != .missed else {
                counters.missedReceptions += 1
                continue
            }
            guard transmission.outcomes[position] != .impaired else { continue }
            guard transmission.outcomes[position] == .intact else {
                counters.collidedReceptions += 1
                continue
            }
            guard transmission.isGroupAddressed || index == transmission.intended else { continue }
            let probability = lossProbability(from: sender, to: receiver)
            if probability > 0, drawUnit() < probability {
                counters.lostReceptions += 1
                continue
            }
            if index == transmission.intended { intendedHeard = true }
            let signal = Int(transmission.signals[position].rounded())
            deliveries.append(
                (
                    receiver,
                    Reception(
                        frame: transmission.frame,
                        info: RxInfo(channel: medium.channel, rssiDBm: signal, timestamp: arrival)
                    )
                )
            )
        }
        counters.receptions += deliveries.count

        let stillSending = sender.attached && sender.current != nil
        var statusNow = false
        if transmission.isGroupAddressed {
            statusNow = stillSending
        } else if intendedHeard {
            acknowledge(transmission, on: medium, notify: stillSending)
        } else if stillSending, let current = sender.current {
            let retryAt = transmission.end + UInt64(configuration.contention.ackTimeout.nanoseconds)
            if current.attempts < configuration.retryLimit {
                sender.current?.contentionWindow = nextWindow(
                    after: current.contentionWindow,
                    access: current.request.access
                )
                contend(sender, on: medium, notBefore: retryAt)
            } else {
                virtualScheduler.schedule(at: Instant(nanoseconds: retryAt)) { [weak self, weak sender] in
                    guard let self, let sender else { return }
                    self.finish(sender, acknowledged: false)
                }
            }
        }
        reschedule(medium)

        for (receiver, reception) in deliveries where receiver.attached { receiver.receive(reception) }
        if statusNow { finish(sender, acknowledged: false) }
    }

    /// The receiver answers SIFS after the frame with an ACK; the sender's status arrives
    /// when the ACK ends.
    func acknowledge(_ transmission: Transmission, on medium: ChannelMedium, notify: Bool) {
        let contention = configuration.contention
        let ackStart = transmission.end + UInt64(contention.sifs.nanoseconds)
        // ACK: Frame Control, Duration, RA (10 octets) + FCS = 14 (IEEE 802.11-2020 9.3.1.3).
        let ackAirtime = transmission.ackRate.airtime(frameLength: 10).nanoseconds
        let ackEnd = ackStart + UInt64(ackAirtime)
        medium.busyUntil = max(medium.busyUntil, ackEnd)
        medium.airtime += ackAirtime
        if configuration.tapsSeeAcknowledgements, !taps.isEmpty, let receiver = transmission.intended {
            let ack: [UInt8] = [0xD4, 0x00, 0x00, 0x00] + transmission.frame[10..<16]
            // The position now: by the ACK's start the receiver may have left and its place
            // gone to another station.
            let position = ports[receiver].station.position
            virtualScheduler.schedule(at: Instant(nanoseconds: ackStart)) { [weak self] in
                self?.tapAcknowledgement(ack, from: position, on: medium, rate: transmission.ackTxRate)
            }
        }
        if notify {
            let sender = ports[transmission.sender]
            virtualScheduler.schedule(at: Instant(nanoseconds: ackEnd)) { [weak self, weak sender] in
                guard let self, let sender else { return }
                self.finish(sender, acknowledged: true)
            }
        }
    }

    func tapAcknowledgement(
        _ ack: [UInt8],
        from origin: StationConfiguration.Position,
        on medium: ChannelMedium,
        rate: TxRate?
    ) {
        for (tap, position) in taps {
            let distance = origin.distance(to: position)
            let loss = configuration.pathLoss.loss(
                distance: distance,
                frequencyMHz: Double(medium.channel.frequencyMHz)
            )
            // ACKs go out at the power of the frame's default (TxRequest's 20 dBm).
            tap.air(
                carried: ack,
                on: medium.channel,
                signalDBm: Int((20 - loss).rounded()),
                rate: rate,
                at: virtualScheduler.now
            )
        }
    }
}

// MARK: - Transmission

/// One frame on the air, from its first octet to its last.
final class Transmission {
    let sender: Int
    let frame: [UInt8]
    let medium: Int
    let start: UInt64
    let end: UInt64
    let powerDBm: Int
    /// The station whose address is A1, for a unicast frame (nil when group-addressed or
    /// nobody on the air has it).
    let intended: Int?
    let isGroupAddressed: Bool
    /// The rate of the ACK that answers it (a unicast frame's control response rate).
    let ackRate: OFDMRate
    /// The ACK's rate for taps: nil when the frame went at the air's default rate, so the
    /// tap reports its own default as before.
    var ackTxRate: TxRate?
    /// Stations that hear the frame above their sensitivity, in station order.
    var receivers: [Int] = []
    var signals: [Double] = []
    var outcomes: [Outcome] = []
    var collided = false

    enum Outcome: UInt8 {
        case intact
        case collided
        /// The receiver transmitted, or tuned away from the channel, while the frame was on the air.
        case missed
        /// A test's ``FrameImpairer`` lost this transmission.
        case impaired
    }

    init(
        sender: Int,
        frame: [UInt8],
        medium: Int,
        start: UInt64,
        end: UInt64,
        powerDBm: Int,
        intended: Int?,
        isGroupAddressed: Bool,
        ackRate: OFDMRate
    ) {
        self.sender = sender
        self.frame = frame
        self.medium = medium
        self.start = start
        self.end = end
        self.powerDBm = powerDBm
        self.intended = intended
        self.isGroupAddressed = isGroupAddressed
        self.ackRate = ackRate
    }

    /// Where `station` is in ``receivers``, by binary search.
    func receiverPosition(_ station: Int) -> Int? {
        var low = 0
        var high = receivers.count
        while low < high {
            let middle = (low + high) / 2
            if receivers[middle] < station { low = middle + 1 } else { high = middle }
        }
        return low < receivers.count && receivers[low] == station ? low : nil
    }
}
