import AwareWire

extension NDPSchedule {
    /// The committed schedule of a NAN Availability attribute (2.7): the union of the committed
    /// entries that name one channel and carry a time bitmap. nil when there is none, or when
    /// committed entries name different channels (a multi-channel schedule is not modelled).
    public init?(availability: AvailabilityAttribute) {
        self.init(entries: availability.entries.filter(\.isCommitted))
    }

    /// The potential availability (what the sender could do); an entry without a time bitmap
    /// means every slot.
    public init?(potentialIn availability: AvailabilityAttribute) {
        self.init(entries: availability.entries.filter(\.isPotential), bitmapRequired: false)
    }

    init?(entries: [AvailabilityEntry], bitmapRequired: Bool = true) {
        var channel: NANChannel?
        var slots = Set<Int>()
        var offset: UInt16?
        for entry in entries {
            guard case .channels(let channels)? = entry.bandChannelEntries?.entries,
                let first = channels.first.flatMap(NANChannel.init(channelEntry:))
            else { continue }
            if let channel, channel.number != first.number { return nil }
            channel = first
            if let bitmap = entry.timeBitmap {
                guard let expanded = Self.slots(of: bitmap) else { return nil }
                slots.formUnion(expanded)
                offset = offset ?? bitmap.control.startOffset
            } else if bitmapRequired {
                continue
            } else {
                slots.formUnion(0..<Self.slotsPerPeriod)
            }
        }
        guard let channel, !slots.isEmpty else { return nil }
        self.init(channel: channel, slots: Array(slots), startOffset: offset ?? 0)
    }

    /// The 16 TU slots of the 512 TU period a time bitmap covers (2.7: bit i = slot i of Bit
    /// Duration from Start Offset, repeating every Period). A bitmap that does not repeat, or
    /// repeats over more than 512 TU, is folded onto one 512 TU period: a slot counts when any
    /// repetition holds it, which is what the peer's radio has to be on for.
    static func slots(of bitmap: TimeBitmap) -> Set<Int>? {
        guard let duration = bitmap.control.bitDuration.timeUnits else { return nil }
        let period = min(bitmap.control.period.timeUnits ?? PerformanceMode.periodTU, PerformanceMode.periodTU)
        let start = bitmap.control.startOffsetTU
        var slots = Set<Int>()
        for index in bitmap.slotIndices {
            let from = start + index * duration
            for tu in stride(from: from, to: from + duration, by: PerformanceMode.slotTU) {
                let phase = tu % period
                for copy in stride(from: phase, to: PerformanceMode.periodTU, by: period) {
                    slots.insert(copy / PerformanceMode.slotTU)
                }
            }
        }
        return slots
    }

    /// A committed or potential availability entry for this schedule (2.7), as the data-path
    /// NAFs write them.
    public func availabilityEntry(committed: Bool, style: NDPAvailabilityStyle) -> AvailabilityEntry {
        entry(committed ? .committed : .potential, style: style)
    }

    /// One availability entry for this schedule (2.7). The time bitmap is left out of an entry
    /// that covers every slot of a potential schedule ("available at any time").
    func entry(_ kind: AvailabilityEntryKind, style: NDPAvailabilityStyle) -> AvailabilityEntry {
        let channels = BandChannelEntries(channels: [channel.channelEntry])
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
        }
    }
}

enum AvailabilityEntryKind {
    case committed
    case potential
}
