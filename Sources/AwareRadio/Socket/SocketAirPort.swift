import AwareCore
import AwareWire

extension SocketAir {
    /// A station's attachment to a ``SocketAir``. Like a port on the simulated air it hears
    /// nothing until ``listeningChannels`` is set.
    public final class Port: AirPort {
        public let station: StationConfiguration
        public var listeningChannels: Set<NANChannel> = []
        let receive: (Reception) -> Void
        let transmitted: (TxStatus) -> Void
        weak var air: SocketAir?
        var attached = true
        /// Lockstep: when the station's last frame ends on the air (virtual ns).
        var busyUntil: UInt64 = 0

        init(
            station: StationConfiguration,
            air: SocketAir,
            receive: @escaping (Reception) -> Void,
            transmitted: @escaping (TxStatus) -> Void
        ) {
            self.station = station
            self.air = air
            self.receive = receive
            self.transmitted = transmitted
        }

        public func transmit(_ request: TxRequest) {
            guard attached else { return }
            air?.transmit(request, from: self)
        }

        public func detach() {
            guard attached else { return }
            attached = false
            air?.detach(self)
        }

        /// Whether the station hears `channel` and owns `address` (so it acknowledges).
        func acknowledges(_ address: MACAddress, on channel: NANChannel) -> Bool {
            attached && listeningChannels.contains(channel) && station.addresses.contains(address)
        }
    }
}
