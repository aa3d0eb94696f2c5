import AwareWire

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
