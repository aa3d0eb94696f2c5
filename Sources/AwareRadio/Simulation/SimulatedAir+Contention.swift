import AwareCore
import AwareWire

/// CSMA/CA on each channel, event-driven: rather than ticking every 9 µs slot, the air
/// computes when the first backoff on a channel runs out and schedules one access event
/// for then; a frame that takes the channel freezes every other countdown (IEEE 802.11-2020
/// 10.3.4.3). Slots are counted on a grid that starts DIFS (or the frame's AIFS under EDCA,
/// 10.23.2.4) after the medium fell idle. AIFS = SIFS + AIFSN × slot and DIFS = SIFS + 2 ×
/// slot, so every contender's grid is the same grid shifted by whole slots: two countdowns
/// that run out in the same slot run out at the same instant and collide.
extension SimulatedAir {
    func contend(_ port: Port, on medium: ChannelMedium, notBefore: UInt64) {
        guard let current = port.current else { return }
        let slots = drawSlots(upTo: current.contentionWindow)
        medium.contenders.append(
            ChannelMedium.Contender(
                station: port.index,
                remaining: slots,
                notBefore: notBefore,
                deferral: deferral(for: current.request.access)
            )
        )
        reschedule(medium)
    }

    /// DIFS for a DCF frame; AIFS = aSIFSTime + AIFSN × aSlotTime for an EDCA one (10.3.2.3.6).
    func deferral(for access: ChannelAccess?) -> UInt64 {
        let contention = configuration.contention
        guard let access else { return UInt64(max(0, contention.difs.nanoseconds)) }
        let aifs = contention.sifs.nanoseconds + Int64(access.aifsn) * contention.slotTime.nanoseconds
        return UInt64(max(0, aifs))
    }

    /// The first CW of a frame: its access category's CWmin, else the air's.
    func initialWindow(for access: ChannelAccess?) -> Int {
        access?.cwMin ?? configuration.contention.cwMin
    }

    /// The CW after a failed attempt, doubling up to the access category's CWmax (or the air's).
    func nextWindow(after window: Int, access: ChannelAccess?) -> Int {
        access?.nextWindow(after: window) ?? configuration.contention.nextWindow(after: window)
    }

    /// The first slot boundary at or after the contender's `notBefore`, on the grid that
    /// starts the contender's DIFS or AIFS after the medium's last busy period.
    func countdownStart(_ contender: ChannelMedium.Contender, on medium: ChannelMedium) -> UInt64 {
        let base = medium.busyUntil &+ contender.deferral
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

// MARK: - ChannelMedium

/// One channel of the simulated air: who is contending for it, what is on it now and when
/// it falls idle.
final class ChannelMedium {
    let channel: NANChannel
    let index: Int
    /// When the last frame or ACK on the channel ends (ns); idle from then on.
    var busyUntil: UInt64 = 0
    var contenders: [Contender] = []
    var accessEvent: ScheduledWork?
    var inFlight: [Transmission] = []
    var airtime: Int64 = 0

    /// A station counting down its backoff on this channel.
    struct Contender {
        var station: Int
        /// Backoff slots still to count.
        var remaining: Int
        /// The station counts no slot before this instant (ns): it joined then, or waits out
        /// an ACK timeout.
        var notBefore: UInt64
        /// The idle time (ns) the station waits after the medium's last busy period before
        /// its first slot: DIFS for a DCF frame, its access category's AIFS under EDCA.
        var deferral: UInt64
    }

    init(channel: NANChannel, index: Int) {
        self.channel = channel
        self.index = index
    }
}
