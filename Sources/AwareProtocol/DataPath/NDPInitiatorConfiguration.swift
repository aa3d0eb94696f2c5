import AwareCore
import AwareWire

/// The phone's side of one data path: it subscribed, found the accessory's publish instance,
/// and now asks for a data path (nan-wire-reference.md 4.1).
public struct NDPInitiatorConfiguration: Hashable, Sendable {
    public var localNMI: MACAddress
    public var localNDI: MACAddress
    public var peerNMI: MACAddress
    /// A3 of every NAF (1.3).
    public var clusterID: MACAddress
    public var publishID: UInt8
    public var serviceID: ServiceID
    public var security: NDPSecurity
    /// The committed schedule we propose.
    public var proposal: NDPSchedule
    /// What we could do beyond the proposal: a counter-proposal inside it is accepted. nil
    /// means every slot of the proposal's channel.
    public var potential: NDPSchedule?
    /// The NAN Availability attributes the request carries instead of the one built from
    /// ``proposal`` and ``potential`` (2.7): a proposal laid out another way, over several maps,
    /// channels or periods (``NDPProposalShape``). nil sends the built one.
    public var proposalAttributes: [AvailabilityAttribute]?
    /// NDL QoS sent with the request (``PerformanceMode/ndlQoS`` signals a mode); nil sends none.
    public var qos: NDLQoSAttribute?
    /// The IPv6 link-local interface identifier (8 octets, NDPE TLV type 0); nil sends no TLV
    /// (hostap's request in session A carries none).
    public var interfaceIdentifier: [UInt8]?
    /// NDPE (0x29) instead of NDP (0x10): what the peer's Device Capability says it reads (2.6).
    public var usesNDPE: Bool
    /// An NDC to propose in the request (2.8), sent as a Selected NDC with NDL Control b2;
    /// nil proposes none and lets the responder choose, as hostap does.
    public var proposedNDC: NDCSchedule?
    public var dialogToken: UInt8
    public var ndpID: UInt8
    /// Set Confirm Required even without security.
    public var confirmRequired: Bool
    /// The category of every NAF: 9 (Protected Dual) to a paired peer, 4 otherwise (1.1, 3.8).
    public var category: NANActionCategory
    /// Attributes written first in every NAF: Device Capability and DCEA (4.1).
    public var leadingAttributes: [NANAttribute]
    public var availabilityStyle: NDPAvailabilityStyle
    /// The radio's HT/VHT capabilities, sent last in the Request (initiator) or an accepting
    /// Response (responder), as hostap does; nil sends none (hostap's session A recording has none).
    public var elementContainer: ElementContainerAttribute?
    /// The Key Replay Counter of message 1; message 3 uses the next value (4.2).
    public var replayCounter: UInt64
    public var retransmission: NDPRetransmission

    public init(
        localNMI: MACAddress,
        localNDI: MACAddress,
        peerNMI: MACAddress,
        clusterID: MACAddress,
        publishID: UInt8,
        serviceID: ServiceID,
        security: NDPSecurity,
        proposal: NDPSchedule,
        potential: NDPSchedule? = nil,
        proposalAttributes: [AvailabilityAttribute]? = nil,
        qos: NDLQoSAttribute? = nil,
        interfaceIdentifier: [UInt8]? = nil,
        usesNDPE: Bool = true,
        proposedNDC: NDCSchedule? = nil,
        dialogToken: UInt8 = 1,
        ndpID: UInt8 = 1,
        confirmRequired: Bool = true,
        category: NANActionCategory? = nil,
        leadingAttributes: [NANAttribute] = [],
        availabilityStyle: NDPAvailabilityStyle = NDPAvailabilityStyle(),
        elementContainer: ElementContainerAttribute? = nil,
        replayCounter: UInt64 = 1,
        retransmission: NDPRetransmission = NDPRetransmission()
    ) {
        self.localNMI = localNMI
        self.localNDI = localNDI
        self.peerNMI = peerNMI
        self.clusterID = clusterID
        self.publishID = publishID
        self.serviceID = serviceID
        self.security = security
        self.proposal = proposal
        self.potential = potential
        self.proposalAttributes = proposalAttributes
        self.qos = qos
        self.interfaceIdentifier = interfaceIdentifier
        self.usesNDPE = usesNDPE
        self.proposedNDC = proposedNDC
        self.dialogToken = dialogToken
        self.ndpID = ndpID
        self.confirmRequired = confirmRequired
        if let category {
            self.category = category
        } else if case .pairing = security {
            self.category = .protectedDualOfPublicAction
        } else {
            self.category = .publicAction
        }
        self.leadingAttributes = leadingAttributes
        self.availabilityStyle = availabilityStyle
        self.elementContainer = elementContainer
        self.replayCounter = replayCounter
        self.retransmission = retransmission
    }

    /// What a counter-proposal must fit in.
    var capability: NDPSchedule {
        potential
            ?? NDPSchedule(
                channel: proposal.channel,
                slots: Array(0..<NDPSchedule.slotsPerPeriod),
                bandwidthMHz: proposal.bandwidthMHz
            )
    }
}
