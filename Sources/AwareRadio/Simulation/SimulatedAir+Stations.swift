import AwareCore
import AwareWire
import Foundation

extension SimulatedAir {
    func medium(for channel: NANChannel) -> ChannelMedium {
        if let index = mediumIndexes[channel] { return media[index] }
        let medium = ChannelMedium(channel: channel, index: media.count)
        mediumIndexes[channel] = medium.index
        media.append(medium)
        return medium
    }

    func updateListening(_ port: Port) {
        var mask: UInt64 = 0
        // Sorted, so media are numbered the same in every process (Set order is not).
        for channel in port.listeningChannels.sorted() {
            let index = medium(for: channel).index
            if index < 64 { mask |= 1 << UInt64(index) }
        }
        port.listeningMask = mask
        // A receiver that tunes away loses what is on the air there, even if it comes back
        // before the frame ends.
        for medium in media where !port.listens(to: medium) {
            for ongoing in medium.inFlight {
                if let position = ongoing.receiverPosition(port.index) { ongoing.outcomes[position] = .missed }
            }
        }
    }

    func enqueue(_ request: TxRequest, from port: Port) {
        guard port.attached else { return }
        if let impairer,
            let delay = impairer.holdBack(
                request.frame,
                from: .local(name: port.station.name),
                at: virtualScheduler.now
            )
        {
            counters.heldBackFrames += 1
            virtualScheduler.schedule(at: virtualScheduler.now + delay) { [weak self, weak port] in
                guard let self, let port, port.attached else { return }
                self.queue(request, from: port)
            }
            return
        }
        queue(request, from: port)
    }

    private func queue(_ request: TxRequest, from port: Port) {
        counters.framesQueued += 1
        port.queue.append(request)
        startNext(port)
    }

    func detach(_ port: Port) {
        guard port.attached else { return }
        port.attached = false
        for key in port.addressKeys where addressOwners[key] == port.index { addressOwners[key] = nil }
        port.queue = []
        port.queueHead = 0
        if let current = port.current, !port.transmitting {
            let medium = media[current.medium]
            medium.contenders.removeAll { $0.station == port.index }
            reschedule(medium)
        }
        port.current = nil
    }

    /// Puts the next queued frame of `port` into contention, if it has none in progress.
    func startNext(_ port: Port) {
        guard port.attached, port.current == nil, port.queueHead < port.queue.count else { return }
        let request = port.queue[port.queueHead]
        port.queueHead += 1
        if port.queueHead == port.queue.count {
            port.queue.removeAll(keepingCapacity: true)
            port.queueHead = 0
        } else if port.queueHead >= 64, port.queueHead * 2 >= port.queue.count {
            port.queue.removeFirst(port.queueHead)
            port.queueHead = 0
        }
        let medium = medium(for: request.channel)
        port.current = Port.PendingFrame(
            request: request,
            medium: medium.index,
            contentionWindow: initialWindow(for: request.access)
        )
        contend(port, on: medium, notBefore: virtualScheduler.now.nanoseconds)
    }

    /// Ends the frame in progress of `port`: reports its status and moves to the next.
    func finish(_ port: Port, acknowledged: Bool) {
        guard port.attached, let current = port.current else { return }
        port.current = nil
        if !isGroupAddressed(current.request.frame) {
            if acknowledged { counters.acknowledged += 1 } else { counters.unacknowledged += 1 }
        }
        startNext(port)
        port.transmitted(
            TxStatus(cookie: current.request.cookie, acknowledged: acknowledged, timestamp: virtualScheduler.now)
        )
    }

    func isGroupAddressed(_ frame: [UInt8]) -> Bool {
        frame.count < 10 || frame[4] & 0x01 != 0
    }

    /// Path loss in dB from `port` to station `receiver` on `medium`, cached per link:
    /// positions never change once attached.
    func pathLoss(from port: Port, to receiver: Int, medium: ChannelMedium) -> Double {
        while port.pathLossCache.count <= medium.index { port.pathLossCache.append([]) }
        if receiver < port.pathLossCache[medium.index].count { return port.pathLossCache[medium.index][receiver] }
        let frequency = Double(medium.channel.frequencyMHz)
        var row = port.pathLossCache[medium.index]
        row.reserveCapacity(ports.count)
        while row.count <= receiver {
            let other = ports[row.count]
            let distance = port.station.position.distance(to: other.station.position)
            row.append(
                configuration.pathLoss.loss(distance: distance, frequencyMHz: frequency)
                    + shadowing(port.linkKey, other.linkKey)
            )
        }
        port.pathLossCache[medium.index] = row
        return row[receiver]
    }

    /// Drops every station's cached path loss to station `index` and beyond: a new station
    /// took that place, somewhere else. The rows keep their storage and refill on demand.
    func forgetPathLoss(to index: Int) {
        for port in ports {
            for medium in port.pathLossCache.indices where port.pathLossCache[medium].count > index {
                port.pathLossCache[medium].removeSubrange(index...)
            }
        }
    }

    /// The shadowing term X_σ of a link, in dB: a Gaussian drawn from a generator seeded by
    /// the air's seed and the two ends (in address order, so both directions agree), so it
    /// does not depend on which stations attached or transmitted first.
    func shadowing(_ a: UInt64, _ b: UInt64) -> Double {
        let sigma = configuration.pathLoss.shadowingSigmaDB
        guard sigma > 0 else { return 0 }
        let (low, high) = a < b ? (a, b) : (b, a)
        var mixer = SeededGenerator(seed: configuration.seed ^ low &* 0x9E37_79B9_7F4A_7C15)
        var link = SeededGenerator(seed: mixer.next() ^ high &* 0xC2B2_AE3D_27D4_EB4F)
        // Box–Muller: two uniforms in (0, 1] give one standard normal.
        let u1 = (Double(link.next() >> 11) + 1) * 0x1p-53
        let u2 = Double(link.next() >> 11) * 0x1p-53
        return sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A uniform draw in 0...upper from the air's generator (multiply-shift, no modulo bias
    /// to speak of).
    func drawSlots(upTo upper: Int) -> Int {
        let span = UInt64(max(0, upper)) + 1
        return Int(truncatingIfNeeded: generator.next().multipliedFullWidth(by: span).high)
    }

    /// A uniform draw in [0, 1) from the air's generator.
    func drawUnit() -> Double {
        Double(generator.next() >> 11) * 0x1p-53
    }

    func lossProbability(from sender: Port, to receiver: Port) -> Double {
        if !linkLoss.isEmpty {
            for from in sender.addressKeys {
                for to in receiver.addressKeys {
                    if let probability = linkLoss[LinkKey(from: from, to: to)] { return probability }
                }
            }
        }
        return configuration.frameErrorProbability
    }
}
