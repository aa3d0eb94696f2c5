import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// The data side of a device: the data paths that finished setup, one queue per access
/// category, and the committed schedules that say when frames may go out and when the
/// receiver is on the data channel.
///
/// A frame leaves only in a slot both sides committed to, on the data channel, with the EDCA
/// parameters of its access category and the TID of its service class; the air then does the
/// contention and the airtime (nan-wire-reference.md 2.7, 4; IEEE 802.11-2020 10.2.3). One
/// data frame is in the air's hands at a time; the highest access category with a frame whose
/// link is in its slot goes next, as EDCA's internal collision resolution gives the higher
/// category the medium (10.2.3.2).
final class DataPlane {
    struct Link {
        var configuration: DataLinkConfiguration
        var nextPacketNumber: UInt64 = 1
        var replay: [UInt8: ReplayCounter] = [:]
        var nextSequenceNumber: UInt16 = 0
        var statistics = DataLinkStatistics()
        var consecutiveFailures = 0
    }

    struct Pending {
        var link: DataLinkID
        var payload: [UInt8]
        var category: AccessCategory
        var queuedAt: Instant
        var deadline: Instant?
        var attempts = 0
    }

    /// What a data path's schedule allows at one instant: send until `openUntil` (nil: not
    /// now), or wait for `nextOpening`.
    struct SendWindow {
        var openUntil: Instant?
        var nextOpening: Instant?
    }

    struct InFlight {
        var pending: Pending
        var length: Int
    }

    /// How often the device sends a frame the air reported unacknowledged, in all: the air's own
    /// retries (the simulated air's retry limit) come first; these cover airs that do not retry
    /// (the socket air), as an 802.11 MAC's dot11ShortRetryLimit would.
    static let attempts = 3
    /// Frames in a row that failed every attempt before the peer counts as gone.
    static let lostAfter = 8
    /// Frames go out no earlier than this after a committed window opens and end no later than
    /// this before it closes: two devices' slot clocks agree only as well as their TSFs do, and
    /// a frame sent at the very edge of a slot may find the receiver not yet (or no longer) on
    /// the data channel.
    static let guardTime = Interval.microseconds(1_000)

    /// Cookies of data frames carry this bit, so their TX status reaches the data plane.
    static let cookieBit: UInt64 = 1 << 63
    /// Frames per access category waiting for a slot.
    static let queueLimit = 4_096

    var links: [DataLinkID: Link] = [:]
    var queues: [AccessCategory: [Pending]] = [:]
    var queueHeads: [AccessCategory: Int] = [:]
    var inFlight: [UInt64: InFlight] = [:]
    var nextCookie: UInt64 = 1
    var wakeup: ScheduledWork?
    var wakeupTime: Instant?
    var pumping = false
    var lostHandler: ((DataLinkID) -> Void)?
    var listenTimer: ScheduledWork?
    var listeningOnData: Set<NANChannel> = []
    /// Fault injection: send frames only in these slots instead of the committed schedule.
    var transmitSlotsOverride: Set<Int>?
    /// Fault injection: send data frames without the NDP's protection.
    var sendsPlaintext = false
    /// Fault injection: this TID on every frame.
    var tidOverride: UInt8?
    /// The PHY rate the device picks for a peer from the peer's last signal: the fastest OFDM
    /// rate whose sensitivity the signal meets (``LinkRate``); the air's default before any.
    var rateForSignal: (Int?) -> TxRate? = { signal in signal.map { LinkRate.select(signalDBm: Double($0)).txRate } }

    func queuedCount() -> Int {
        queues.reduce(0) { $0 + $1.value.count - (queueHeads[$1.key] ?? 0) }
    }
}
