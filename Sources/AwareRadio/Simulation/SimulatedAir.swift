import AwareCore
import AwareWire

/// An in-process air under virtual time: stations at positions on a plane, channels, frame
/// airtime, path loss, loss, CSMA/CA contention and ACKs, all driven by a
/// ``VirtualScheduler`` and a seeded generator, so the same calls on the same seed carry the
/// same frames at the same instants (and a tap writes the same capture bytes).
///
/// The medium, in short:
/// - A frame takes ``OFDMRate/airtime(frameLength:)`` at its own ``TxRequest/rate``, or at
///   ``Configuration/rate`` when it has none. A station
///   receives it when it listens on the frame's channel from its first octet to its last,
///   hears it at or above ``Configuration/sensitivityDBm`` (``PathLossModel``), is not
///   transmitting itself meanwhile, no other frame it hears overlaps it (see
///   ``Configuration/captureThresholdDB``) and the loss draw spares it. Like a NIC's
///   address filter, a unicast frame is handed only to the station that owns its A1; a
///   group-addressed frame to every station that received it. The ``Reception`` arrives
///   when the last octet does.
/// - Carrier sense is channel-wide: every station defers to every frame on the channel,
///   however weak (no hidden stations). Each frame waits DIFS of idle medium (AIFS of its
///   ``TxRequest/access`` under EDCA) and then a backoff of 0…CW slots (CW from the air's
///   ``ContentionParameters``, or the frame's access category) drawn from the seeded
///   generator, counted down only while the
///   medium is idle and frozen while it is busy (IEEE 802.11-2020 10.3.3, 10.3.4.3); a
///   frame always backs off, even on a medium idle for long, so stations woken by the
///   same timer spread out. Backoffs that end in the same slot collide.
/// - A unicast frame the owner of A1 received is acknowledged SIFS later (an ACK of 14
///   octets at ``Configuration/ackRate``, 44 µs at 6 Mb/s, or at the control response rate
///   of the frame's own rate: 24 Mb/s for 54 Mb/s) and its ``TxStatus`` reports
///   `acknowledged: true` when the ACK ends. Otherwise the sender waits the ACK timeout,
///   doubles CW and tries again, up to ``Configuration/retryLimit`` transmissions, then
///   reports `acknowledged: false`. ACKs are never lost (the loss model applies to the
///   frames stations send), so receivers never see duplicates.
/// - Group-addressed frames are sent once and report `acknowledged: false` when they end.
/// - A station sends its frames one at a time, in the order it queued them.
/// - Taps see every transmission (retransmissions included, ACKs on request) as its first
///   octet goes on the air, stamped with that instant (radiotap TSFT's meaning), on every
///   channel, with the signal a receiver at the tap's position would measure.
///
/// Everything runs on the scheduler: callbacks fire inside ``VirtualScheduler/step()``.
public final class SimulatedAir: ImpairableAir {
    public let virtualScheduler: VirtualScheduler
    public var scheduler: any EventScheduler { virtualScheduler }
    public private(set) var configuration: Configuration

    /// The air's one source of randomness; drawn only in event order.
    var generator: SeededGenerator
    var ports: [Port] = []
    var addressOwners: [UInt64: Int] = [:]
    var media: [ChannelMedium] = []
    var mediumIndexes: [NANChannel: Int] = [:]
    var taps: [(tap: any AirTap, position: StationConfiguration.Position)] = []
    var linkLoss: [LinkKey: Double] = [:]
    var counters = Statistics()
    /// A test's impairments (fault plans); nil carries every frame as sent.
    public var impairer: (any FrameImpairer)?

    struct LinkKey: Hashable {
        var from: UInt64
        var to: UInt64
    }

    public init(configuration: Configuration = Configuration(), scheduler: VirtualScheduler = VirtualScheduler()) {
        self.configuration = configuration
        virtualScheduler = scheduler
        generator = SeededGenerator(seed: configuration.seed)
    }

    /// What the air has carried so far.
    public var statistics: Statistics {
        var result = counters
        for medium in media {
            result.airtime[medium.channel] = Interval(nanoseconds: medium.airtime)
        }
        return result
    }

    /// The stations on the air now, in the order of their places (a station that attaches takes
    /// the place of one that left, if there is one).
    public var stations: [StationConfiguration] {
        ports.filter(\.attached).map(\.station)
    }

    public func attach(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> any AirPort {
        try attachPort(station, receive: receive, transmitted: transmitted)
    }

    /// ``attach(_:receive:transmitted:)`` returning the concrete port.
    public func attachPort(
        _ station: StationConfiguration,
        receive: @escaping (Reception) -> Void,
        transmitted: @escaping (TxStatus) -> Void
    ) throws(AirError) -> Port {
        var seen: Set<UInt64> = []
        for address in station.addresses {
            let key = Self.key(of: address)
            guard addressOwners[key] == nil, seen.insert(key).inserted else { throw .addressInUse(address) }
        }
        let index = ports.indices.first(where: isReusable) ?? ports.count
        let port = Port(station: station, index: index, air: self, receive: receive, transmitted: transmitted)
        for key in port.addressKeys { addressOwners[key] = port.index }
        if index < ports.count {
            ports[index] = port
            forgetPathLoss(to: index)
        } else {
            ports.append(port)
        }
        return port
    }

    /// Whether the place of station `index` can go to a station that attaches now: it left, and
    /// nothing on the air still refers to it. Stations that come and go (a phone leaving and
    /// joining again, hour after hour in `aware-bench soak`) then do not pile up detached ports,
    /// nor the path-loss rows of every other station.
    private func isReusable(_ index: Int) -> Bool {
        let port = ports[index]
        guard !port.attached, !port.transmitting, port.current == nil else { return false }
        return media.allSatisfy { medium in
            !medium.contenders.contains { $0.station == index }
                && medium.inFlight.allSatisfy { transmission in
                    transmission.sender != index && transmission.intended != index
                        && transmission.receiverPosition(index) == nil
                }
        }
    }

    /// Adds a tap at the origin: it sees every frame on every channel, with the signal a
    /// receiver at (0, 0) would measure (it has no sensitivity limit).
    public func addTap(_ tap: any AirTap) {
        addTap(tap, at: .origin)
    }

    /// Adds a tap that measures signal as a receiver at `position` would.
    public func addTap(_ tap: any AirTap, at position: StationConfiguration.Position) {
        taps.append((tap, position))
    }

    /// Sets the loss probability of every frame stations send (per receiver).
    public func setLoss(probability: Double) {
        configuration.frameErrorProbability = probability
    }

    /// Sets the loss probability of frames from the station with address `from` to the
    /// station with address `to` (one direction), overriding the global one; nil removes
    /// the override.
    public func setLoss(from: MACAddress, to: MACAddress, probability: Double?) {
        linkLoss[LinkKey(from: Self.key(of: from), to: Self.key(of: to))] = probability
    }

    /// The signal in dBm `receiver` measures from `sender` transmitting at `powerDBm` on
    /// `channel` (path loss and shadowing; before the sensitivity test).
    public func signal(
        from sender: any AirPort,
        to receiver: any AirPort,
        on channel: NANChannel,
        powerDBm: Int
    )
        -> Double?
    {
        guard let sender = sender as? Port, let receiver = receiver as? Port, sender.air === self,
            receiver.air === self
        else { return nil }
        return Double(powerDBm) - pathLoss(from: sender, to: receiver.index, medium: medium(for: channel))
    }

    static func key(of address: MACAddress) -> UInt64 {
        key(of: address.octets[...])
    }

    static func key(of octets: ArraySlice<UInt8>) -> UInt64 {
        octets.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

// MARK: - Configuration

extension SimulatedAir {
    /// Everything that shapes a simulated air. Two airs with equal configurations, fed the
    /// same calls, carry the same frames at the same instants.
    public struct Configuration: Hashable, Sendable {
        /// Seeds the air's one generator (backoff slots, loss draws) and the per-link shadowing.
        public var seed: UInt64
        public var pathLoss: PathLossModel
        /// Frames arriving weaker than this are not heard (a typical 6 Mb/s OFDM receiver
        /// manages −82 dBm by 802.11's minimum, real chips around −90 dBm).
        public var sensitivityDBm: Double
        /// The probability that a frame otherwise heard intact is lost (bit errors, fading),
        /// drawn per receiver; ``SimulatedAir/setLoss(from:to:probability:)`` overrides it per link.
        public var frameErrorProbability: Double
        /// The rate of every frame without its own ``TxRequest/rate`` (NAN management frames
        /// use the 6 Mb/s basic rate).
        public var rate: OFDMRate
        /// The rate of ACKs to frames without their own rate (the basic rate, 6 Mb/s).
        public var ackRate: OFDMRate
        /// The most transmissions of one unicast frame, the first included, before the
        /// sender gives up (dot11ShortRetryLimit, 7 by default: IEEE 802.11-2020 annex C).
        public var retryLimit: Int
        public var contention: ContentionParameters
        /// When set, a receiver keeps a frame that overlaps another if its signal is at least
        /// this many dB stronger than each overlapping one (the capture effect); nil (the
        /// default) means every overlap loses both frames at receivers that hear both.
        public var captureThresholdDB: Double?
        /// Sets the Retry bit (Frame Control flags, bit 3) in retransmissions, as 802.11
        /// senders do (9.2.4.1.7); the only change the air ever makes to a frame's octets.
        public var marksRetransmissions: Bool
        /// Shows taps the ACK frames (10 octets: Frame Control 0xD4 0x00, Duration 0, RA)
        /// as well as the frames stations send.
        public var tapsSeeAcknowledgements: Bool

        public init(
            seed: UInt64 = 0,
            pathLoss: PathLossModel = .indoor,
            sensitivityDBm: Double = -90,
            frameErrorProbability: Double = 0,
            rate: OFDMRate = .mbps6,
            ackRate: OFDMRate = .mbps6,
            retryLimit: Int = 7,
            contention: ContentionParameters = ContentionParameters(),
            captureThresholdDB: Double? = nil,
            marksRetransmissions: Bool = true,
            tapsSeeAcknowledgements: Bool = false
        ) {
            self.seed = seed
            self.pathLoss = pathLoss
            self.sensitivityDBm = sensitivityDBm
            self.frameErrorProbability = frameErrorProbability
            self.rate = rate
            self.ackRate = ackRate
            self.retryLimit = max(1, retryLimit)
            self.contention = contention
            self.captureThresholdDB = captureThresholdDB
            self.marksRetransmissions = marksRetransmissions
            self.tapsSeeAcknowledgements = tapsSeeAcknowledgements
        }
    }
}

// MARK: - Port

extension SimulatedAir {
    /// A station's attachment to a ``SimulatedAir``: its receiver's channels, its transmit
    /// queue and what the air remembers about its links.
    public final class Port: AirPort {
        public let station: StationConfiguration
        /// The station's place on the air (the place of a station that left may be given to
        /// one that attaches later); the air visits receivers in this order.
        let index: Int
        let addressKeys: [UInt64]
        /// The address shadowing is keyed on (the first address, or the index when none).
        let linkKey: UInt64
        let receive: (Reception) -> Void
        let transmitted: (TxStatus) -> Void
        weak var air: SimulatedAir?
        var attached = true

        /// One bit per channel medium index below 64, for a fast "does it listen" test.
        var listeningMask: UInt64 = 0
        /// Frames waiting behind ``current``; `queueHead` is the next one.
        var queue: [TxRequest] = []
        var queueHead = 0
        var current: PendingFrame?
        /// Whether the station's own frame is on the air now (it cannot receive meanwhile).
        var transmitting = false
        /// Path loss in dB to each station, by channel medium index then station index.
        var pathLossCache: [[Double]] = []

        /// The frame at the head of the queue, contending or on the air.
        struct PendingFrame {
            var request: TxRequest
            var medium: Int
            var attempts = 0
            var contentionWindow: Int
        }

        init(
            station: StationConfiguration,
            index: Int,
            air: SimulatedAir,
            receive: @escaping (Reception) -> Void,
            transmitted: @escaping (TxStatus) -> Void
        ) {
            self.station = station
            self.index = index
            self.air = air
            self.receive = receive
            self.transmitted = transmitted
            addressKeys = station.addresses.map(SimulatedAir.key(of:))
            linkKey = addressKeys.first ?? (1 << 48 | UInt64(index))
        }

        public var listeningChannels: Set<NANChannel> = [] {
            didSet { air?.updateListening(self) }
        }

        public func transmit(_ request: TxRequest) {
            air?.enqueue(request, from: self)
        }

        public func detach() {
            air?.detach(self)
        }

        func listens(to medium: ChannelMedium) -> Bool {
            medium.index < 64
                ? listeningMask & (1 << UInt64(medium.index)) != 0
                : listeningChannels.contains(medium.channel)
        }
    }
}

// MARK: - Statistics

extension SimulatedAir {
    /// What the air has carried so far, for benchmarks and reports.
    public struct Statistics: Hashable, Sendable {
        /// Frames stations asked to send.
        public var framesQueued = 0
        /// Transmissions put on the air, retransmissions included (not ACKs).
        public var transmissions = 0
        /// Transmissions that repeated an unacknowledged unicast frame.
        public var retransmissions = 0
        /// Transmissions that overlapped another transmission on their channel.
        public var collisions = 0
        /// Frames handed to receivers.
        public var receptions = 0
        /// Receptions lost because another frame the receiver heard overlapped them.
        public var collidedReceptions = 0
        /// Receptions lost to the configured loss probability.
        public var lostReceptions = 0
        /// Receptions lost because the receiver left the channel (or the air) mid-frame, or
        /// was itself transmitting.
        public var missedReceptions = 0
        /// Transmissions a test's ``FrameImpairer`` lost or altered, and frames it held back.
        public var impairedTransmissions = 0
        public var heldBackFrames = 0
        /// Unicast frames acknowledged.
        public var acknowledged = 0
        /// Unicast frames given up after ``Configuration/retryLimit`` transmissions.
        public var unacknowledged = 0
        /// Time each channel carried frames and ACKs (overlapping frames each count).
        public var airtime: [NANChannel: Interval] = [:]

        public init() {}
    }
}
