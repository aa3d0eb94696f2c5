import AwareWire

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
