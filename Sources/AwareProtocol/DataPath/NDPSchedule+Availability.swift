import AwareCore
import AwareWire

extension NDPSchedule {
    /// The committed schedule of a NAN Availability attribute (2.7): the union of the committed
    /// entries with a time bitmap. nil when there is none, or when the committed entries name
    /// different primary channels (use ``schedules(in:kinds:bitmapRequired:)`` for those).
    public init?(availability: AvailabilityAttribute) {
        guard let schedules = Self.schedules(in: [availability], kinds: [.committed]), schedules.count == 1 else {
            return nil
        }
        self = schedules[0]
    }

    /// The potential availability (what the sender could do); an entry without a time bitmap
    /// means every slot. nil under the same conditions as ``init(availability:)``.
    public init?(potentialIn availability: AvailabilityAttribute) {
        guard let schedules = Self.schedules(in: [availability], kinds: [.potential], bitmapRequired: false),
            schedules.count == 1
        else { return nil }
        self = schedules[0]
    }

    /// The schedules the entries of `kinds` in the NAN Availability attributes of one frame
    /// describe, one per primary channel, across every Map ID (2.7: a device sends one attribute
    /// per map; hostap sends map 1 per radio, this bench map 0, a phone may send several).
    /// Entries on the same primary channel are united over the longest period among them.
    ///
    /// A committed or conditional entry names one channel: its first Channel Entry counts (hostap
    /// refuses one with several unless it is also potential). A potential entry may list several
    /// channels; each gets the entry's slots, and without a time bitmap every slot when
    /// `bitmapRequired` is false. Band entries name no channel and are skipped.
    ///
    /// - Returns: sorted by channel; nil when a time bitmap cannot be read (a reserved Bit
    ///   Duration), so the caller can refuse the availability as hostap does.
    public static func schedules(
        in attributes: [AvailabilityAttribute],
        kinds: Set<AvailabilityEntryKind>,
        bitmapRequired: Bool = true
    ) -> [NDPSchedule]? {
        var byChannel: [UInt8: (channel: NANChannel, bandwidth: Int, period: Int, slots: Set<Int>, offset: UInt16?)] =
            [:]
        for entry in attributes.flatMap(\.entries) where kinds.contains(where: { $0.matches(entry) }) {
            guard case .channels(let channelEntries)? = entry.bandChannelEntries?.entries else { continue }
            let named =
                entry.isPotential && !entry.isCommitted && !entry.isConditional
                ? channelEntries : Array(channelEntries.prefix(1))
            let period: Int
            let slots: Set<Int>
            if let bitmap = entry.timeBitmap {
                guard let expanded = Self.slots(of: bitmap) else { return nil }
                (period, slots) = expanded
            } else if bitmapRequired {
                continue
            } else {
                (period, slots) = (slotsPerPeriod, Set(0..<slotsPerPeriod))
            }
            for channelEntry in named {
                guard let primary = NANChannel.primary(of: channelEntry) else { continue }
                var group =
                    byChannel[primary.channel.number]
                    ?? (primary.channel, primary.bandwidthMHz, period, [], entry.timeBitmap?.control.startOffset)
                let longer = max(group.period, period)
                group.slots = Self.repeated(group.slots, from: group.period, to: longer)
                    .union(Self.repeated(slots, from: period, to: longer))
                group.period = longer
                byChannel[primary.channel.number] = group
            }
        }
        return byChannel.values.sorted { $0.channel < $1.channel }.compactMap { group in
            guard !group.slots.isEmpty else { return nil }
            return NDPSchedule(
                channel: group.channel,
                slots: Array(group.slots),
                startOffset: group.offset ?? 0,
                periodSlots: group.period,
                bandwidthMHz: group.bandwidth
            ).normalized
        }
    }

    static func repeated(_ slots: Set<Int>, from period: Int, to target: Int) -> Set<Int> {
        guard target > period else { return slots }
        return Set(stride(from: 0, to: target, by: period).flatMap { base in slots.map { base + $0 } })
    }

    /// The 16 TU slots a time bitmap covers (2.7: bit i = slot i of Bit Duration from Start
    /// Offset, repeating every Period), over the bitmap's period, or 512 TU for a 128 or 256 TU
    /// period (repeated to fill it), the way hostap's `nan_tbm_to_bf` expands bits to 16 TU slots.
    /// Bits past the end of the period wrap into it (hostap refuses such a bitmap; a slot is a
    /// slot). A bitmap that does not repeat (Period 0) is read over 8192 TU, hostap's horizon; a
    /// reserved Bit Duration gives nil.
    static func slots(of bitmap: TimeBitmap) -> (periodSlots: Int, slots: Set<Int>)? {
        guard let durationTU = bitmap.control.bitDuration.timeUnits else { return nil }
        let duration = durationTU / PerformanceMode.slotTU
        let cycle =
            (bitmap.control.period.timeUnits ?? maximumPeriodSlots * PerformanceMode.slotTU)
            / PerformanceMode.slotTU
        let period = max(cycle, slotsPerPeriod)
        let start = Int(bitmap.control.startOffset)
        var slots = Set<Int>()
        for index in bitmap.slotIndices {
            for step in 0..<duration {
                let slot = (start + index * duration + step) % cycle
                for copy in stride(from: slot, to: period, by: cycle) { slots.insert(copy) }
            }
        }
        return (period, slots)
    }

    /// A committed or potential availability entry for this schedule (2.7), as the data-path
    /// NAFs write them.
    public func availabilityEntry(committed: Bool, style: NDPAvailabilityStyle) -> AvailabilityEntry {
        entry(committed ? .committed : .potential, style: style)
    }

    /// One availability entry for this schedule (2.7). The time bitmap is left out of an entry
    /// that covers every slot of a potential schedule ("available at any time").
    public func entry(_ kind: AvailabilityEntryKind, style: NDPAvailabilityStyle) -> AvailabilityEntry {
        let channels = BandChannelEntries(channels: [
            channel.channelEntry(bandwidthMHz: bandwidthMHz) ?? channel.channelEntry
        ])
        switch kind {
        case .committed:
            return AvailabilityEntry(
                committed: true,
                utilization: style.committedUtilization,
                rxNSS: style.committedRxNSS,
                timeBitmap: timeBitmap,
                bandChannelEntries: channels
            )
        case .potential:
            return AvailabilityEntry(
                potential: true,
                usagePreference: style.potentialUsagePreference,
                utilization: style.potentialUtilization,
                rxNSS: style.potentialRxNSS,
                timeBitmap: isFull ? nil : timeBitmap,
                bandChannelEntries: channels
            )
        case .conditional:
            return AvailabilityEntry(
                conditional: true,
                utilization: style.committedUtilization,
                rxNSS: style.committedRxNSS,
                timeBitmap: timeBitmap,
                bandChannelEntries: channels
            )
        }
    }
}

/// The Type bits of an Availability Entry (2.7: b0 Committed, b1 Potential, b2 Conditional).
public enum AvailabilityEntryKind: Hashable, Sendable, CaseIterable {
    case committed
    case potential
    /// Slots the sender would commit if the peer agrees; a responder may schedule in them like
    /// in committed ones (hostap covers a schedule by committed and conditional entries).
    case conditional

    func matches(_ entry: AvailabilityEntry) -> Bool {
        switch self {
        case .committed: entry.isCommitted
        case .potential: entry.isPotential
        case .conditional: entry.isConditional
        }
    }
}
