import AwareCore
import AwareWire

/// One side of an established NDL whose schedule is renegotiated (NAF subtypes 10-12) or
/// announced (subtype 13). All data paths with one peer share the NDL and so its schedule.
public struct NDLScheduleConfiguration: Hashable, Sendable {
    public var localNMI: MACAddress
    public var peerNMI: MACAddress
    /// A3 of every NAF, as for the data path NAFs (1.3).
    public var clusterID: MACAddress
    /// The category of the NDL's data path NAFs: 9 (Protected Dual) to a paired peer, 4
    /// otherwise. Whether a schedule NAF may go as category 9 is unsettled: hostap's
    /// `nan_is_naf` takes category 9 only for subtypes 5-9 (it ignores 10-13 anyway); this bench
    /// sends them like the data path NAFs and takes either category on receive.
    public var category: NANActionCategory
    /// What this side can do, sent as the potential entry: a responder accepts inside it, a
    /// requester takes a counter-proposal only inside it.
    public var availability: NDPSchedule
    /// The schedule the NDL runs on now: what a rejection or a refused counter-proposal names as
    /// committed, since it stays. nil names ``availability``.
    public var current: NDPSchedule?
    /// The widest channel our radio takes on the data channel.
    public var maximumBandwidthMHz: Int
    /// The fewest slots (of the first 512 TU) a new schedule may have.
    public var minimumSlots: Int
    /// A responder offers its own availability when a proposal does not fit (4.1); off
    /// rejects such a proposal.
    public var counterProposes: Bool
    /// NDL QoS a requester sends (its minimum binds the responder); nil sends none.
    public var qos: NDLQoSAttribute?
    /// The NDL's NDC (2.8): kept when the new schedule holds it, else one of the new schedule's
    /// slots is selected under the same ID.
    public var ndc: NDCSchedule?
    /// Attributes written first in every NAF: Device Capability and DCEA (4.1).
    public var leadingAttributes: [NANAttribute]
    public var availabilityStyle: NDPAvailabilityStyle
    public var retransmission: NDPRetransmission

    public init(
        localNMI: MACAddress,
        peerNMI: MACAddress,
        clusterID: MACAddress,
        category: NANActionCategory = .publicAction,
        availability: NDPSchedule,
        current: NDPSchedule? = nil,
        maximumBandwidthMHz: Int = 80,
        minimumSlots: Int = 1,
        counterProposes: Bool = true,
        qos: NDLQoSAttribute? = nil,
        ndc: NDCSchedule? = nil,
        leadingAttributes: [NANAttribute] = [],
        availabilityStyle: NDPAvailabilityStyle = NDPAvailabilityStyle(),
        retransmission: NDPRetransmission = NDPRetransmission()
    ) {
        self.localNMI = localNMI
        self.peerNMI = peerNMI
        self.clusterID = clusterID
        self.category = category
        self.availability = availability
        self.current = current
        self.maximumBandwidthMHz = maximumBandwidthMHz
        self.minimumSlots = minimumSlots
        self.counterProposes = counterProposes
        self.qos = qos
        self.ndc = ndc
        self.leadingAttributes = leadingAttributes
        self.availabilityStyle = availabilityStyle
        self.retransmission = retransmission
    }

    /// The NDC that goes with `schedule`: ours when the schedule holds it, else one slot of the
    /// schedule under our NDC's ID (or an ID from our NMI when the NDL has none).
    public func ndc(for schedule: NDPSchedule) -> NDCSchedule? {
        if let ndc, schedule.contains(ndc.schedule) { return ndc }
        return NDCSchedule(selectingFrom: schedule, id: ndc?.id ?? NDCSchedule.identifier(random: localNMI.octets))
    }

    /// A schedule NAF to the peer: leading attributes, NAN Availability (committed and our
    /// potential), the NDC, then the NDL (when given) and NDL QoS.
    func mpdu(
        _ subtype: NAFSubtype,
        committed: NDPSchedule,
        ndc: NDCSchedule?,
        ndl: (dialogToken: UInt8, type: NDLType, status: DataPathStatus, reason: NANReasonCode)?,
        qos: NDLQoSAttribute? = nil
    ) -> [UInt8] {
        var attributes = leadingAttributes
        attributes.append(
            NDPFrames.availability(committed: committed, potential: availability, style: availabilityStyle)
        )
        if let ndc { attributes.append(.ndc(ndc.attribute())) }
        if let ndl {
            attributes.append(
                NDPFrames.ndl(
                    dialogToken: ndl.dialogToken,
                    type: ndl.type,
                    status: ndl.status,
                    reason: ndl.reason,
                    ndcPresent: ndc != nil,
                    qosPresent: qos != nil
                )
            )
        }
        if let qos { attributes.append(.ndlQoS(qos)) }
        let frame = NANActionFrame(category: category, subtype: subtype, attributes: attributes)
        return NDPFrames.mpdu(frame, to: peerNMI, from: localNMI, cluster: clusterID)
    }

    /// A Schedule Update Notification (subtype 13): our new committed schedule and potential,
    /// the NDC; no NDL attribute and no answer (MediaTek's gen4m reads only the availability and
    /// NDC of it, and only for an established NDL).
    public func updateNotification(committed: NDPSchedule) -> [UInt8] {
        mpdu(.scheduleUpdateNotification, committed: committed, ndc: ndc(for: committed), ndl: nil)
    }
}

/// What a schedule machine asks its owner to do, in order.
public enum NDLScheduleAction: Hashable, Sendable {
    /// A whole MPDU carrying a NAF; the device applies protection for a paired peer.
    case transmit([UInt8])
    case arm(NDPTimer, at: Instant)
    case cancel(NDPTimer)
    /// The NDL runs on this schedule and NDC from now on.
    case agreed(NDPSchedule, ndc: NDCSchedule?)
    /// The renegotiation failed; the NDL keeps its previous schedule. (MediaTek's driver tears
    /// the NDL down instead; no specification clause we can cite settles it, so the data path
    /// goes on as before here.)
    case failed(NDPFailure)
}

/// What the owner feeds a schedule machine.
public enum NDLScheduleEvent: Hashable, Sendable {
    /// A NAF from `transmitter` (A2), already unprotected and parsed.
    case received(NANActionFrame, transmitter: MACAddress)
    case timerFired(NDPTimer)
}
