import AwareCore
import AwareWire

/// The accessory's side: what it offers to every data path request (nan-wire-reference.md 4.1).
public struct NDPResponderConfiguration: Hashable, Sendable {
    public var localNMI: MACAddress
    public var localNDI: MACAddress
    public var clusterID: MACAddress
    /// What the accessory can offer; the agreed schedule is a subset of it.
    public var availability: NDPSchedule
    /// The widest channel the accessory's radio takes on its data channel: a proposal on the
    /// same primary channel is scheduled at the narrower of its bandwidth and this one.
    public var maximumBandwidthMHz: Int
    /// Sent as NDPE TLV type 0 when the request came as NDPE; nil sends none.
    public var interfaceIdentifier: [UInt8]?
    /// Publish ID -> the transport of the service it publishes (port and protocol), sent in every
    /// Data Path Response that is not a rejection: as the NDPE Service Info TLV, or in the NDP
    /// Specific Info of an NDP attribute (Android's placement). A service without an entry sends none.
    public var transportInfo: [UInt8: GenericServiceProtocol]
    public var policy: NDPResponderPolicy
    /// Peer NMI -> what we hold for it (the ND-PMK of a paired peer).
    public var credentials: [MACAddress: NDPSecurity]
    /// Used for a peer without an entry in ``credentials`` (a service passphrase or PMK).
    public var defaultCredential: NDPSecurity?
    /// Publish ID -> the service it publishes (the ND-PMKID and passphrase salt name it, 4.2).
    public var serviceIDs: [UInt8: ServiceID]
    /// The fewest slots an agreed schedule may have.
    public var minimumSlots: Int
    /// Attributes written first in every NAF: Device Capability and DCEA (4.1).
    public var leadingAttributes: [NANAttribute]
    /// The ID of the NDC an accepting response selects when the request proposed none (2.8);
    /// nil takes one from the RNonce's last six octets.
    public var ndcID: MACAddress?
    public var availabilityStyle: NDPAvailabilityStyle
    /// The radio's HT/VHT capabilities, sent last in the Request (initiator) or an accepting
    /// Response (responder), as hostap does; nil sends none (hostap's session A recording has none).
    public var elementContainer: ElementContainerAttribute?
    /// Our own NDL QoS for an accepting Response, as hostap sends its configured one; nil sends
    /// none. Never the requester's echoed back: a requester keeps what the Response carries and
    /// holds later schedule changes to it (hostap re-checks it strictly on every change), so its
    /// own minimum echoed back would turn an exact fit into a failure later.
    public var qos: NDLQoSAttribute?
    public var retransmission: NDPRetransmission

    public init(
        localNMI: MACAddress,
        localNDI: MACAddress,
        clusterID: MACAddress,
        availability: NDPSchedule,
        maximumBandwidthMHz: Int = 80,
        interfaceIdentifier: [UInt8]? = nil,
        transportInfo: [UInt8: GenericServiceProtocol] = [:],
        policy: NDPResponderPolicy = NDPResponderPolicy(),
        credentials: [MACAddress: NDPSecurity] = [:],
        defaultCredential: NDPSecurity? = nil,
        serviceIDs: [UInt8: ServiceID],
        minimumSlots: Int = 1,
        leadingAttributes: [NANAttribute] = [],
        ndcID: MACAddress? = nil,
        availabilityStyle: NDPAvailabilityStyle = NDPAvailabilityStyle(),
        elementContainer: ElementContainerAttribute? = nil,
        qos: NDLQoSAttribute? = nil,
        retransmission: NDPRetransmission = NDPRetransmission()
    ) {
        self.localNMI = localNMI
        self.localNDI = localNDI
        self.clusterID = clusterID
        self.availability = availability
        self.maximumBandwidthMHz = maximumBandwidthMHz
        self.interfaceIdentifier = interfaceIdentifier
        self.transportInfo = transportInfo
        self.policy = policy
        self.credentials = credentials
        self.defaultCredential = defaultCredential
        self.serviceIDs = serviceIDs
        self.minimumSlots = minimumSlots
        self.leadingAttributes = leadingAttributes
        self.ndcID = ndcID
        self.availabilityStyle = availabilityStyle
        self.elementContainer = elementContainer
        self.qos = qos
        self.retransmission = retransmission
    }
}
