import AwareCore
import AwareWire

/// The NAN Data Cluster (NDC) a data path belongs to and the NDC's base schedule
/// (nan-wire-reference.md 2.8): slots in which every device of the NDC is awake on the data
/// channel, whatever else its NDLs agreed. The NDL Response that accepts a schedule names one as
/// the Selected NDC, and a Confirm that answers a counter-proposal names it again.
///
/// Why it is not optional: hostap's `nan_ndl.c` drops an NDL Response (status Accepted or
/// Continued) that carries no Selected NDC ("Missing valid selected NDC") and so never confirms,
/// and it rejects an NDC the sender's own committed availability does not cover.
public struct NDCSchedule: Hashable, Sendable {
    /// The NDC ID: six octets in the form of a MAC address.
    public var id: MACAddress
    /// The base schedule's slots, on the data path's channel.
    public var schedule: NDPSchedule

    public init(id: MACAddress, schedule: NDPSchedule) {
        self.id = id
        self.schedule = schedule
    }

    /// The NDC a responder selects for an agreed schedule: one slot of it, the first after a
    /// discovery window on the channel's band, as hostap chooses (slot 9, just after the 5 GHz
    /// DW at 128 TU, on channel 149; slot 1, just after the 2.4 GHz DW, on channel 6), else the
    /// schedule's first slot. It repeats with the agreed schedule's period, so it lies inside the
    /// agreed schedule however long that period is. nil for an empty schedule.
    public init?(selectingFrom agreed: NDPSchedule, id: MACAddress) {
        let afterWindow = agreed.channel.frequencyMHz >= 5_000 ? 9 : 1
        guard let slot = agreed.slots.contains(afterWindow) ? afterWindow : agreed.slots.first else { return nil }
        self.init(
            id: id,
            schedule: NDPSchedule(
                channel: agreed.channel,
                slots: [slot],
                startOffset: agreed.startOffset,
                periodSlots: agreed.periodSlots,
                bandwidthMHz: agreed.bandwidthMHz
            )
        )
    }

    /// The NDC of a received attribute, on the data path's channel (the NDC's schedule entries
    /// name a map, whose channel is the availability's), over the longest period of its entries.
    /// nil without a schedule entry, or with a time bitmap that cannot be read.
    public init?(_ attribute: NDCAttribute, channel: NANChannel) {
        var period = NDPSchedule.slotsPerPeriod
        var slots = Set<Int>()
        var offset: UInt16?
        for entry in attribute.scheduleEntries {
            guard let expanded = NDPSchedule.slots(of: entry.timeBitmap) else { return nil }
            let longer = max(period, expanded.periodSlots)
            slots = NDPSchedule.repeated(slots, from: period, to: longer)
                .union(NDPSchedule.repeated(expanded.slots, from: expanded.periodSlots, to: longer))
            period = longer
            offset = offset ?? entry.timeBitmap.control.startOffset
        }
        guard !slots.isEmpty else { return nil }
        self.init(
            id: attribute.ndcID,
            schedule: NDPSchedule(channel: channel, slots: Array(slots), startOffset: offset ?? 0, periodSlots: period)
                .normalized
        )
    }

    /// The NDC attribute (2.8): Map ID 0 (the map of every NAN Availability this bench sends),
    /// the schedule as a 16 TU / 512 TU time bitmap, Selected NDC set when `selected`.
    public func attribute(selected: Bool = true) -> NDCAttribute {
        NDCAttribute(
            ndcID: id,
            selected: selected,
            scheduleEntries: [ScheduleEntry(mapIDField: 0, timeBitmap: schedule.timeBitmap)]
        )
    }

    /// A locally administered, individual NDC ID from six random octets (hostap draws all six at
    /// random; the two low bits of the first are fixed here so the ID never reads as a group
    /// address in a capture).
    public static func identifier(random octets: [UInt8]) -> MACAddress {
        var bytes = Array(octets.prefix(6))
        while bytes.count < 6 { bytes.append(0) }
        bytes[0] = (bytes[0] & 0xFC) | 0x02
        return MACAddress(bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5])
    }
}
