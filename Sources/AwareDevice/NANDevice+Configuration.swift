import AwareCore
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
        /// The NAN Data Interface address the device's data paths use; the air acknowledges
        /// frames to it as to the NMI.
        public var dataInterfaceAddress: MACAddress

        public init(
            name: String,
            address: MACAddress,
            position: StationConfiguration.Position = .origin,
            synchronization: SynchronizationConfiguration? = nil,
            usdChannel: NANChannel = .channel6,
            transmitPowerDBm: Int = 20,
            announcementPeriod: Interval? = nil,
            reportsRejectedPublishes: Bool = false,
            dataInterfaceAddress: MACAddress? = nil
        ) {
            self.dataInterfaceAddress = dataInterfaceAddress ?? Self.defaultDataInterfaceAddress(for: address)
            self.name = name
            self.address = address
            self.position = position
            self.synchronization = synchronization
            self.usdChannel = usdChannel
            self.transmitPowerDBm = transmitPowerDBm
            self.announcementPeriod = announcementPeriod
            self.reportsRejectedPublishes = reportsRejectedPublishes
        }

        /// The NDI a device uses unless told otherwise: its NMI with bit 2 of the first octet
        /// flipped. It stays a locally administered unicast address, and devices numbered in
        /// sequence (02:c0:00:00:00:f4, 02:c0:00:00:01:f4, ...) never take each other's NMI as
        /// their NDI, which the air would refuse as an address in use.
        public static func defaultDataInterfaceAddress(for nmi: MACAddress) -> MACAddress {
            let octets = nmi.octets
            return MACAddress(octets[0] ^ 0x04, octets[1], octets[2], octets[3], octets[4], octets[5])
        }
    }
}
