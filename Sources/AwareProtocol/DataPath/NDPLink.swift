import AwareCore
import AwareCrypto
import AwareWire

/// An established data path: who, which keys, which schedule.
public struct NDPLink: Hashable, Sendable {
    /// A data path is named by the peer's NMI and the NDP ID the initiator chose.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public var peerNMI: MACAddress
        public var ndpID: UInt8

        public init(peerNMI: MACAddress, ndpID: UInt8) {
            self.peerNMI = peerNMI
            self.ndpID = ndpID
        }

        public var description: String { "NDP \(ndpID) with \(peerNMI)" }
    }

    public var ndpID: UInt8
    public var initiatorNDI: MACAddress
    public var responderNDI: MACAddress
    public var peerNMI: MACAddress
    public var publishID: UInt8
    public var isInitiator: Bool
    /// nil for an open data path.
    public var security: NANSecurityCipherSuite?
    /// The temporal key of the NDP PTK (4.2); empty when open.
    public var tk: [UInt8]
    /// The agreed committed schedule.
    public var schedule: NDPSchedule
    /// The peer's IPv6 link-local interface identifier (NDPE TLV type 0, 2.10), if it sent one.
    public var peerInterfaceIdentifier: [UInt8]?
    /// The NDL QoS the peer sent, if any.
    public var peerQoS: NDLQoSAttribute?
    /// The NDC the NDL Response selected (2.8); nil when the responder selected none.
    public var ndc: NDCSchedule?
    /// The service transport the peer named in its NDPE Service Info TLV (or, in an NDP
    /// attribute, its NDP Specific Info), if it named one: the port and protocol an initiator's
    /// app connects to (Android `WifiAwareNetworkInfo.getPort` / `getTransportProtocol`).
    public var peerServiceInfo: GenericServiceProtocol? = nil

    public var id: ID { ID(peerNMI: peerNMI, ndpID: ndpID) }
    public var localNDI: MACAddress { isInitiator ? initiatorNDI : responderNDI }
    public var peerNDI: MACAddress { isInitiator ? responderNDI : initiatorNDI }
    /// CSID 1 / 7 -> CCMP-128, 2 / 8 -> GCMP-256; nil when open.
    public var cipher: PASNCipher? { security?.dataCipher }
}
