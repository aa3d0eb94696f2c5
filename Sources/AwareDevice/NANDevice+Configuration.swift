import AwareProtocol
import AwareRadio
import AwareWire

extension NANDevice {
    /// Who a device is and how it discovers.
    public struct Configuration: Hashable, Sendable {
        /// For logs and captures ("accessory", "phone").
        public var name: String
        /// The NAN Management Interface address.
        public var address: MACAddress
        /// Where it stands on the simulated air, in metres.
        public var position: StationConfiguration.Position
        /// nil: unsynchronized service discovery (USD) on ``usdChannel``; otherwise the
        /// device joins or forms a cluster and discovers inside its discovery windows.
        public var synchronization: SynchronizationConfiguration?
        public var usdChannel: NANChannel
        public var transmitPowerDBm: Int
        /// USD announcement period; nil keeps the machine's default (100 ms).
        public var announcementPeriod: Interval?
        public var reportsRejectedPublishes: Bool

        public init(
            name: String,
            address: MACAddress,
            position: StationConfiguration.Position = .origin,
            synchronization: SynchronizationConfiguration? = nil,
            usdChannel: NANChannel = .channel6,
            transmitPowerDBm: Int = 20,
            announcementPeriod: Interval? = nil,
            reportsRejectedPublishes: Bool = false
        ) {
            self.name = name
            self.address = address
            self.position = position
            self.synchronization = synchronization
            self.usdChannel = usdChannel
            self.transmitPowerDBm = transmitPowerDBm
            self.announcementPeriod = announcementPeriod
            self.reportsRejectedPublishes = reportsRejectedPublishes
        }
    }
}
