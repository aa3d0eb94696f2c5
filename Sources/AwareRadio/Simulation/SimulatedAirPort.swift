import AwareCore
import AwareWire

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
