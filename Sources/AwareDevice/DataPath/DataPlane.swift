import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// The data side of a device: the data paths that finished setup, each with one queue per
/// access category and a bounded hardware queue of frames handed to the air, and the committed
/// schedules that say when frames may go out and when the receiver is on the data channel.
///
/// A frame leaves only in a slot both sides committed to, on the data channel, with the EDCA
/// parameters of its access category and the TID of its service class; the air then does the
/// contention and the airtime (nan-wire-reference.md 2.7, 4; IEEE 802.11-2020 10.2.3). Up to
/// ``hardwareQueueDepth`` frames of a data path are in the air's hands at a time; the highest
/// access category with a frame goes next, as EDCA's internal collision resolution gives the
/// higher category the medium (10.2.3.2). Every step is O(1) per frame: a TX status touches
/// only its own data path, an expired frame is dropped when it reaches its queue's head, and a
/// stream's frames are built only when they are about to go (``Stream``).
final class DataPlane {
    final class Link {
        var configuration: DataLinkConfiguration
        var nextPacketNumber: UInt64 = 1
        var replay: [UInt8: ReplayCounter] = [:]
        var nextSequenceNumber: UInt16 = 0
        var statistics = DataLinkStatistics()
        var consecutiveFailures = 0
        /// When the last failure counted in ``consecutiveFailures`` was reported.
        var lastFailureCounted: Instant?
        /// One queue per access category, by ``AccessCategory/rank``.
        var queues = [FrameQueue](repeating: FrameQueue(), count: AccessCategory.allCases.count)
        /// Streams whose frames are made when they go, by ``AccessCategory/rank``.
        var streams: [[Stream]] = Array(repeating: [], count: AccessCategory.allCases.count)
        /// Frames handed to the air whose TX status has not come.
        var inFlight = 0
        /// The pump's wake-up for this data path: its next window, or a stream's next frame.
        var wakeup: ScheduledWork?
        var wakeupTime: Instant?
        /// The send window worked out last, valid until `windowValidUntil` on `windowOffset`.
        var window = SendWindow()
        var windowValidUntil: Instant?
        var windowOffset: Int64 = 0

        init(configuration: DataLinkConfiguration) {
            self.configuration = configuration
        }

        /// Whether a frame waits in a queue or a stream has frames to come.
        var hasWaitingFrames: Bool {
            queues.contains { !$0.isEmpty } || streams.contains { !$0.isEmpty }
        }
    }

    struct Pending {
        var link: DataLinkID
        var payload: [UInt8]
        var category: AccessCategory
        var queuedAt: Instant
        var deadline: Instant?
        var attempts = 0
    }

    /// A FIFO of frames with O(1) push at both ends and pop at the head.
    struct FrameQueue {
        private var storage: [Pending] = []
        private var head = 0

        var count: Int { storage.count - head }
        var isEmpty: Bool { head == storage.count }
        var first: Pending? { head < storage.count ? storage[head] : nil }

        mutating func append(_ pending: Pending) { storage.append(pending) }

        /// A retry goes back to the head, before every frame queued after it.
        mutating func prepend(_ pending: Pending) {
            if head > 0 {
                head -= 1
                storage[head] = pending
            } else {
                storage.insert(pending, at: 0)
            }
        }

        mutating func removeFirst() -> Pending {
            let pending = storage[head]
            head += 1
            if head == storage.count {
                storage.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= storage.count {
                storage.removeFirst(head)
                head = 0
            }
            return pending
        }

        mutating func removeAll(where predicate: (Pending) -> Bool) {
            storage = storage[head...].filter { !predicate($0) }
            head = 0
        }
    }

    /// A periodic flow of frames whose content is made only when a frame is about to go: frame
    /// `index` is offered at `first + index × period` and, with a `lifetime`, dropped once it
    /// is that old, without ever being made. An offered load above what the schedule carries
    /// costs arithmetic, not frames built and encrypted only to expire.
    final class Stream {
        let id: DataStreamID
        let category: AccessCategory
        let first: Instant
        let period: Interval
        let count: Int
        let lifetime: Interval?
        let make: (_ index: Int, _ offeredAt: Instant) -> [UInt8]
        /// The next frame not yet sent or dropped.
        var next = 0

        init(
            id: DataStreamID,
            category: AccessCategory,
            first: Instant,
            period: Interval,
            count: Int,
            lifetime: Interval?,
            make: @escaping (Int, Instant) -> [UInt8]
        ) {
            self.id = id
            self.category = category
            self.first = first
            self.period = Interval(nanoseconds: max(1, period.nanoseconds))
            self.count = count
            self.lifetime = lifetime
            self.make = make
        }

        /// The frame at `next`, made once when it first reached the head of its category.
        private var made: (index: Int, payload: [UInt8])?

        /// The length of the last frame made.
        private(set) var lastLength: Int?

        func madeHead() -> [UInt8] {
            if let made, made.index == next { return made.payload }
            let payload = make(next, offeredAt(next))
            made = (next, payload)
            lastLength = payload.count
            return payload
        }

        func offeredAt(_ index: Int) -> Instant { first + period * Int64(index) }

        /// Frames offered by `now` (at most `count`).
        func offered(by now: Instant) -> Int {
            guard now >= first else { return 0 }
            return min(count, Int((now - first).nanoseconds / period.nanoseconds) + 1)
        }

        /// The first frame still within its lifetime at `now`.
        func firstAlive(at now: Instant) -> Int {
            guard let lifetime, now > first + lifetime else { return 0 }
            // offeredAt(i) + lifetime >= now  <=>  i >= (now - lifetime - first) / period
            let age = (now - first - lifetime).nanoseconds
            return min(count, Int((age + period.nanoseconds - 1) / period.nanoseconds))
        }

        var finished: Bool { next >= count }
    }

    /// What a data path's schedule allows at one instant: send until `openUntil` (nil: not
    /// now), or wait for `nextOpening`.
    struct SendWindow {
        var openUntil: Instant?
        var nextOpening: Instant?
    }

    /// The frame that goes next in one category: a queued one or a stream's.
    struct Candidate {
        enum Source {
            case queue
            case stream(Stream)
        }
        var source: Source
        var queuedAt: Instant
        var payloadLength: Int
    }

    struct InFlight {
        var pending: Pending
        var length: Int
        var airtime: Interval
        /// When it was handed to the air.
        var sentAt: Instant
    }

    /// How often the device sends a frame the air reported unacknowledged, in all: the air's own
    /// retries (the simulated air's retry limit) come first; these cover airs that do not retry
    /// (the socket air), as an 802.11 MAC's dot11ShortRetryLimit would.
    static let attempts = 3
    /// Frames in a row that failed every attempt before the peer counts as gone. Frames that
    /// were in the hardware queue together fail together when the peer is away for a moment;
    /// only a frame sent at or after the last counted failure was reported counts again.
    static let lostAfter = 8
    /// Frames go out no earlier than this after a committed window opens and end no later than
    /// this before it closes: two devices' slot clocks agree only as well as their TSFs do, and
    /// a frame sent at the very edge of a slot may find the receiver not yet (or no longer) on
    /// the data channel.
    static let guardTime = Interval.microseconds(1_000)
    /// Frames of one data path handed to the air and not yet reported on: the radio's transmit
    /// queue. 32 is ESP-IDF's default: its Wi-Fi driver copies each frame the stack hands it
    /// into a TX buffer until the MAC has sent it, and the default buffer type, dynamic, allows
    /// 32 (`CONFIG_ESP_WIFI_DYNAMIC_TX_BUFFER_NUM`); the bench's power model is that chip's
    /// (RadioPowerModel). The air sends them in order; only the status of each comes back
    /// later. The bench gives each data path its own queue, so a peer that stopped
    /// acknowledging holds up only its own frames.
    static let hardwareQueueDepth = 32
    /// What a frame holds the medium for besides its own airtime, for the estimate of when the
    /// frames in the hardware queue are done: AIFS and mean backoff of AC_BE (43 + 67.5 µs),
    /// SIFS and an ACK at 6 Mb/s (16 + 44 µs; IEEE 802.11-2020 10.2.3, 17.4.4), rounded up.
    static let perFrameOverhead = Interval.microseconds(200)

    /// Cookies of data frames carry this bit, so their TX status reaches the data plane.
    static let cookieBit: UInt64 = 1 << 63
    /// Frames per access category waiting for a slot.
    static let queueLimit = 4_096

    var links: [DataLinkID: Link] = [:]
    /// The data paths in the order they opened: every pass over them goes in this order, so a
    /// seed reproduces a run.
    var linkOrder: [DataLinkID] = []
    /// Frames waiting in each access category's queues, over all data paths, by rank.
    var queuedPerCategory = [Int](repeating: 0, count: AccessCategory.allCases.count)
    var inFlight: [UInt64: InFlight] = [:]
    /// The air time the data frames in the radio's hands hold, over all data paths: they share
    /// one radio, which sends them one after another.
    var inFlightAirtime = Interval.zero
    /// Data paths whose next frame did not fit in their window behind the frames in the radio's
    /// hands: pumped again when one of those frames is reported on.
    var waitingForAirtime: [DataLinkID] = []
    var nextCookie: UInt64 = 1
    var nextStream: UInt64 = 1
    var pumping = false
    /// Data paths asked to be pumped during a pass, pumped after it.
    var pumpAgain: [DataLinkID] = []
    var listenTimer: ScheduledWork?
    var listeningOnData: Set<NANChannel> = []
    /// An unsynchronized device's view of the clusters around it, whose TSF its data paths follow.
    var heardClusters = HeardClusters()
    /// Fault injection: an unsynchronized device counts data slots from its own TSF timer, at
    /// this offset from the scheduler's clock, instead of the TSF of the cluster it hears (the
    /// defect issue 14 found in the bench itself).
    var ownSlotClockOffset: Int64?
    /// Fault injection: send frames only in these slots instead of the committed schedule.
    var transmitSlotsOverride: Set<Int>?
    /// Fault injection: send data frames without the NDP's protection.
    var sendsPlaintext = false
    /// Fault injection: this TID on every frame.
    var tidOverride: UInt8?
    /// The PHY rate the device picks for a peer from the peer's last signal: the fastest OFDM
    /// rate whose sensitivity the signal meets (``LinkRate``); the air's default before any.
    var rateForSignal: (Int?) -> TxRate? = { signal in signal.map { LinkRate.select(signalDBm: Double($0)).txRate } }
    /// Work done, for tests of the pump's cost: frames looked at by the pump (each one it sent,
    /// kept waiting or dropped) and the pump's passes.
    var framesExamined = 0
    var pumpPasses = 0

    func queuedCount() -> Int { queuedPerCategory.reduce(0, +) }
}

/// A stream of frames a data path makes as they go (``NANDevice/offerDataStream``).
public struct DataStreamID: Hashable, Sendable {
    public var link: DataLinkID
    public var value: UInt64
}

extension AccessCategory {
    /// 0 (background) to 3 (voice): the index of the category's queue.
    var rank: Int {
        switch self {
        case .background: 0
        case .bestEffort: 1
        case .video: 2
        case .voice: 3
        }
    }
}

// MARK: - DataLinkID

/// One NAN data path of a device: the peer's NMI and the NDP ID the initiator chose
/// (nan-wire-reference.md 2.10). Two phones may both use NDP ID 1; the pair tells them apart.
public typealias DataLinkID = NDPLink.ID

// MARK: - DataLinkConfiguration

/// What the device needs to carry a data path's frames once its setup finished: the two data
/// interface addresses, the NDP's TK, and the committed schedule on the data channel.
public struct DataLinkConfiguration: Hashable, Sendable {
    public var id: DataLinkID
    public var localNDI: MACAddress
    public var peerNDI: MACAddress
    /// A3 of the data frames: the NAN Cluster ID.
    public var clusterID: MACAddress
    /// The NDP TK; empty for an open data path.
    public var key: [UInt8]
    /// CCMP-128 for CSID 1 and 7, GCMP-256 for CSID 2 and 8; nil for an open data path.
    public var cipher: PASNCipher?
    public var channel: NANChannel
    /// The 16 TU slots both sides committed to, numbered in a period of ``periodSlots``.
    public var slots: Set<Int>
    /// 32 (512 TU) unless the agreed schedule repeats only over a longer period (2.7).
    public var periodSlots: Int

    public init(
        id: DataLinkID,
        localNDI: MACAddress,
        peerNDI: MACAddress,
        clusterID: MACAddress,
        key: [UInt8],
        cipher: PASNCipher?,
        channel: NANChannel,
        slots: Set<Int>,
        periodSlots: Int = DataSlotClock.slotsPerPeriod
    ) {
        self.id = id
        self.localNDI = localNDI
        self.peerNDI = peerNDI
        self.clusterID = clusterID
        self.key = key
        self.cipher = cipher
        self.channel = channel
        self.slots = slots
        self.periodSlots = periodSlots
    }

    public var isSecured: Bool { cipher != nil }
}

// MARK: - DataLinkStatistics

/// What a device counted on one data path, for the performance report.
public struct DataLinkStatistics: Hashable, Sendable {
    /// Frames handed to the device to send.
    public var framesOffered = 0
    /// Frames the peer acknowledged.
    public var framesDelivered = 0
    /// Frames the air gave up on after its retries.
    public var framesFailed = 0
    /// Frames past their deadline before they could go out (unreliable flows only).
    public var framesExpired = 0
    /// Frames refused because the queue of their access category was full.
    public var framesOverflowed = 0
    public var octetsDelivered = 0
    public var framesReceived = 0
    public var octetsReceived = 0
    /// Unprotected data frames from a peer whose data path is secured.
    public var unprotectedDropped = 0
    public var authenticationFailures = 0
    public var replaysDropped = 0
    /// The last signal heard from the peer on this data path.
    public var lastSignalDBm: Int?
    /// The TIDs of frames received, by TID.
    public var receivedTIDs: [UInt8: Int] = [:]
    /// Transmit latency per access category: from the moment a frame was queued to its
    /// acknowledgement, as the phone's `transmitLatency` counts (apple-peer-model.md 1.8).
    public var transmitLatencies: [AccessCategory: [Interval]] = [:]

    public init() {}

    /// The most samples kept per access category; later ones replace the oldest.
    public static let sampleLimit = 200_000

    /// In place: a copy of the samples per frame would cost as much as the samples kept.
    mutating func record(latency: Interval, category: AccessCategory) {
        if let count = transmitLatencies[category]?.count, count >= Self.sampleLimit {
            transmitLatencies[category]?.removeFirst(count / 2)
        }
        transmitLatencies[category, default: []].append(latency)
    }
}
