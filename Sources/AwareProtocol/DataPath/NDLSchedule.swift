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
    /// A responder's availability in each performance mode it offers (apple-peer-model.md 1.7):
    /// a request whose NDL QoS asks for a mode (``PerformanceMode/init(ndlQoS:)``) is judged
    /// against that mode's availability, and a mode not in here is refused with reason 9
    /// (QoS unacceptable), as a Data Path Request in it is. Empty: the request's QoS names no
    /// mode to the responder, and ``availability`` answers.
    public var modeAvailability: [PerformanceMode: NDPSchedule] = [:]

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

/// What a schedule machine asks its owner to do, in order. A transmission is a whole MPDU
/// carrying a NAF; the device applies protection for a paired peer.
public typealias NDLScheduleAction = MachineAction<[UInt8], NDPTimer, NDLScheduleNotification>

/// What a schedule machine reports to its owner: the outcome of the exchange.
public enum NDLScheduleNotification: Hashable, Sendable {
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

/// The parts of a received schedule NAF (subtypes 10-13) the schedule machines read: the NDL
/// attribute, the NAN Availability attributes, the NDC and the NDL QoS. Unlike the data path
/// NAFs they carry no NDP attribute: the NDL's dialog token ties an exchange together.
public struct NDLScheduleMessage: Sendable {
    public let frame: NANActionFrame
    public let ndl: NDLAttribute?
    /// Every NAN Availability attribute, in order (one per Map ID, 2.7).
    public let availabilities: [AvailabilityAttribute]
    public let ndcs: [NDCAttribute]
    public let qos: NDLQoSAttribute?

    /// nil unless the frame is a Schedule Request, Response, Confirm or Update Notification.
    public init?(_ frame: NANActionFrame) {
        switch frame.subtype {
        case .scheduleRequest, .scheduleResponse, .scheduleConfirm, .scheduleUpdateNotification: break
        default: return nil
        }
        var ndl: NDLAttribute?
        var availabilities: [AvailabilityAttribute] = []
        var ndcs: [NDCAttribute] = []
        var qos: NDLQoSAttribute?
        for attribute in frame.attributes {
            switch attribute {
            case .ndl(let value) where ndl == nil: ndl = value
            case .availability(let value): availabilities.append(value)
            case .ndc(let value): ndcs.append(value)
            case .ndlQoS(let value) where qos == nil: qos = value
            default: continue
            }
        }
        self.frame = frame
        self.ndl = ndl
        self.availabilities = availabilities
        self.ndcs = ndcs
        self.qos = qos
    }

    /// The sender's schedule of `kinds` on `channel`'s primary channel, across every map; nil
    /// when none is there or a bitmap cannot be read.
    public func schedule(on channel: NANChannel, kinds: Set<AvailabilityEntryKind> = [.committed]) -> NDPSchedule? {
        NDPSchedule.schedules(in: availabilities, kinds: kinds)?.first { $0.channel.number == channel.number }
    }

    /// The NDC the frame names (2.8), on `channel`: the first with schedule entries.
    public func ndc(on channel: NANChannel) -> NDCSchedule? {
        ndcs.lazy.compactMap { NDCSchedule($0, channel: channel) }.first
    }
}

/// How a responder answers a proposed NDL schedule (nan-wire-reference.md 4.1): the Data Path
/// Request's NDL and a Schedule Request's are judged alike. The slots both sides hold, when the
/// first 512 TU of them reach the minimum; else our own availability as a counter-proposal, when
/// we make one and it reaches the minimum; else a rejection (INVALID_AVAILABILITY).
public enum NDLScheduleDecision: Hashable, Sendable {
    /// NDL Accepted with this committed schedule (inside the proposal).
    case accept(NDPSchedule)
    /// NDL Continued: this schedule (our own availability) is offered instead.
    case counterPropose(NDPSchedule)
    /// NDL Rejected.
    case reject

    /// - Parameters:
    ///   - own: what we can do.
    ///   - proposal: the peer's proposal on our primary channel; nil when it named only others.
    ///   - needed: the fewest slots of the first 512 TU (the NDL QoS minimum counts those, as
    ///     hostap's `nan_ndl_determine_status` does).
    ///   - maximumBandwidthMHz: the widest channel our radio takes; a wider proposal on our
    ///     primary channel is scheduled at this width.
    public init(
        own: NDPSchedule,
        proposal: NDPSchedule?,
        needed: Int,
        maximumBandwidthMHz: Int,
        counterProposes: Bool
    ) {
        if let proposal,
            let common = Self.reach(own, toward: proposal, maximumBandwidthMHz: maximumBandwidthMHz)
                .intersection(proposal),
            common.slotsInFirstBlock >= needed
        {
            self = .accept(common)
        } else if own.slots.count >= needed, counterProposes {
            self = .counterPropose(own)
        } else {
            self = .reject
        }
    }

    /// The fewest slots of the first 512 TU a schedule must hold: our own floor, at least 1, raised
    /// to an NDL QoS Minimum Time Slots when one is given (2.9).
    public static func neededSlots(minimumSlots: Int, qos: NDLQoSAttribute?) -> Int {
        let asked = qos.flatMap { $0.hasMinimumTimeSlotsPreference ? Int($0.minimumTimeSlots) : nil } ?? 0
        return max(minimumSlots, asked, 1)
    }

    /// Our availability at the bandwidth a proposal on the same primary channel asks for, up to
    /// the widest we take (hostap matches availability by control channel, whatever the width).
    static func reach(_ own: NDPSchedule, toward proposal: NDPSchedule, maximumBandwidthMHz: Int) -> NDPSchedule {
        var widened = own
        widened.bandwidthMHz = max(own.bandwidthMHz, min(proposal.bandwidthMHz, maximumBandwidthMHz))
        return widened
    }
}
