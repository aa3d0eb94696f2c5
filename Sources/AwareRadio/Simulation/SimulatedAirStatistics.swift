import AwareCore
import AwareWire

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
