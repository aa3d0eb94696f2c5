import AwareCore
import AwareWire

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
