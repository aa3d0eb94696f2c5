import AwareWire

/// CSMA/CA on each channel, event-driven: rather than ticking every 9 µs slot, the air
/// computes when the first backoff on a channel runs out and schedules one access event
/// for then; a frame that takes the channel freezes every other countdown (IEEE 802.11-2020
/// 10.3.4.3). Slots are counted on a grid that starts DIFS after the medium fell idle, so
/// two countdowns that run out in the same slot run out at the same instant and collide.
extension SimulatedAir {
    func contend(_ port: Port, on medium: ChannelMedium, notBefore: UInt64) {
        guard let current = port.current else { return }
        let slots = drawSlots(upTo: current.contentionWindow)
        medium.contenders.append(
            ChannelMedium.Contender(station: port.index, remaining: slots, notBefore: notBefore)
        )
        reschedule(medium)
    }

    /// The first slot boundary at or after the contender's `notBefore`, on the grid that
    /// starts DIFS after the medium's last busy period.
    func countdownStart(_ contender: ChannelMedium.Contender, on medium: ChannelMedium) -> UInt64 {
        let base = medium.busyUntil &+ UInt64(configuration.contention.difs.nanoseconds)
        guard contender.notBefore > base else { return base }
        let slot = UInt64(max(1, configuration.contention.slotTime.nanoseconds))
        return base + (contender.notBefore - base + slot - 1) / slot * slot
    }

    func accessTime(_ contender: ChannelMedium.Contender, on medium: ChannelMedium) -> UInt64 {
        let slot = UInt64(max(1, configuration.contention.slotTime.nanoseconds))
        return countdownStart(contender, on: medium) + UInt64(contender.remaining) * slot
    }

    /// Re-arms the medium's access event for the earliest countdown to run out.
    func reschedule(_ medium: ChannelMedium) {
        if let event = medium.accessEvent {
            virtualScheduler.cancel(event)
            medium.accessEvent = nil
        }
        guard !medium.contenders.isEmpty else { return }
        var earliest = UInt64.max
        for contender in medium.contenders { earliest = min(earliest, accessTime(contender, on: medium)) }
        let index = medium.index
        medium.accessEvent = virtualScheduler.schedule(at: Instant(nanoseconds: earliest)) { [weak self] in
            self?.access(medium: index, at: earliest)
        }
    }

    /// The countdowns that run out at `time` take the medium; the others freeze with the
    /// slots they have counted.
    func access(medium index: Int, at time: UInt64) {
        let medium = media[index]
        medium.accessEvent = nil
        let slot = UInt64(max(1, configuration.contention.slotTime.nanoseconds))
        var winners: [Int] = []
        var waiting: [ChannelMedium.Contender] = []
        waiting.reserveCapacity(medium.contenders.count)
        for var contender in medium.contenders {
            let start = countdownStart(contender, on: medium)
            if start + UInt64(contender.remaining) * slot == time {
                winners.append(contender.station)
                continue
            }
            if start < time {
                contender.remaining -= Int((time - start) / slot)
                contender.notBefore = time
            }
            waiting.append(contender)
        }
        medium.contenders = waiting
        for station in winners { begin(ports[station], on: medium, at: time) }
        reschedule(medium)
    }
}
