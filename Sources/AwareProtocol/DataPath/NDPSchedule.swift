import AwareCore
import AwareWire

/// The data-channel availability of one side, or the committed schedule two sides agreed: a
/// channel and the 16 TU slots of a repeating period (nan-wire-reference.md 2.7, 6: "32 slots x
/// 16 TU = 512 TU schedule").
///
/// The period is 512 TU (32 slots) unless the schedule only repeats over a longer one: a peer may
/// send availability with periods up to 8192 TU (2.7: Period codes 4-7), and iPhones do (an
/// availability period longer than 512 TU broke ESP-IDF's parser, esp-idf #16743). Like hostap's
/// `nan_tbm_to_bf`, which keeps 512 slots of 16 TU covering 8192 TU, a schedule is kept in 16 TU
/// slots over its own period; two schedules are compared over the longer of their periods.
public struct NDPSchedule: Hashable, Sendable {
    /// The slots of the 512 TU period, the shortest this bench keeps (a 128 or 256 TU period is
    /// repeated to fill it).
    public static let slotsPerPeriod = PerformanceMode.periodTU / PerformanceMode.slotTU
    /// The slots of the longest period a time bitmap can name, 8192 TU (2.7: Period code 7).
    public static let maximumPeriodSlots = 8_192 / PerformanceMode.slotTU

    /// The primary 20 MHz channel: two schedules on the same primary share a channel whatever
    /// their bandwidths (hostap compares availability entries by control channel).
    public var channel: NANChannel
    /// 20, 40, 80 or 160 MHz around ``channel`` (the Channel Entry's operating class).
    public var bandwidthMHz: Int
    /// The slots of one period: 32 (512 TU), 64, 128, 256 or 512 (8192 TU).
    public private(set) var periodSlots: Int
    /// Slot numbers from the start of the period, sorted, without duplicates.
    public var slots: [Int]
    /// Where the encoded time bitmap starts, in 16 TU units (Time Bitmap Control b6-14, 2.7).
    /// It changes only the encoding: bit i of the bitmap is slot (startOffset + i) mod the period.
    public var startOffset: UInt16

    /// - Parameter periodSlots: rounded up to a power of two between 32 and 512; slots outside
    ///   the period are dropped.
    public init(
        channel: NANChannel = .channel149,
        slots: [Int],
        startOffset: UInt16 = 0,
        periodSlots: Int = NDPSchedule.slotsPerPeriod,
        bandwidthMHz: Int = 20
    ) {
        var period = Self.slotsPerPeriod
        while period < min(periodSlots, Self.maximumPeriodSlots) { period *= 2 }
        self.channel = channel
        self.bandwidthMHz = bandwidthMHz
        self.periodSlots = period
        self.slots = Array(Set(slots.filter { (0..<period).contains($0) })).sorted()
        self.startOffset = startOffset % UInt16(period)
    }

    /// The schedule of a performance mode on `channel`.
    public init(mode: PerformanceMode, channel: NANChannel = .channel149) {
        self.init(channel: channel, slots: mode.availableSlots)
    }

    /// The period in TU.
    public var periodTU: Int { periodSlots * PerformanceMode.slotTU }

    public var isFull: Bool { slots.count == periodSlots }

    /// The share of time the schedule covers, 0...1.
    public var dutyCycle: Double { Double(slots.count) / Double(periodSlots) }

    /// The same schedule over `periodSlots` (a multiple of this period): the slots repeat.
    public func repeated(toPeriodSlots target: Int) -> NDPSchedule {
        guard target > periodSlots, target % periodSlots == 0 else { return self }
        let copies = stride(from: 0, to: target, by: periodSlots).flatMap { base in slots.map { base + $0 } }
        return NDPSchedule(
            channel: channel,
            slots: copies,
            startOffset: startOffset,
            periodSlots: target,
            bandwidthMHz: bandwidthMHz
        )
    }

    /// The same schedule over the shortest period it repeats in (at least 512 TU), so a schedule
    /// that only looks long is sent and compared as the 512 TU schedule it is.
    public var normalized: NDPSchedule {
        var period = periodSlots
        let set = Set(slots)
        while period > Self.slotsPerPeriod {
            let half = period / 2
            let repeats = set.allSatisfy { slot in set.contains((slot + half) % period) }
            guard repeats else { break }
            period = half
        }
        guard period < periodSlots else { return self }
        return NDPSchedule(
            channel: channel,
            slots: slots.filter { $0 < period },
            startOffset: startOffset,
            periodSlots: period,
            bandwidthMHz: bandwidthMHz
        )
    }

    /// 16 TU bits over the schedule's period, `periodSlots / 8` octets (4 for 512 TU, 64 for
    /// 8192 TU, hostap's largest accepted bitmap); Period is the schedule's own, so the bitmap is
    /// never longer than its repeat period (hostap refuses that: "tbm is longer than the repeat
    /// period").
    public var timeBitmap: TimeBitmap {
        var octets = [UInt8](repeating: 0, count: periodSlots / 8)
        let offset = Int(startOffset)
        for slot in slots {
            let bit = (slot - offset + periodSlots) % periodSlots
            octets[bit / 8] |= 1 << UInt8(bit % 8)
        }
        let control = TimeBitmapControl(
            bitDuration: .tu16,
            period: Self.periodCode(slots: periodSlots),
            startOffset: startOffset
        )
        return TimeBitmap(control: control, bitmap: octets)
    }

    static func periodCode(slots: Int) -> TimeBitmapPeriod {
        switch slots {
        case ...32: .tu512
        case ...64: .tu1024
        case ...128: .tu2048
        case ...256: .tu4096
        default: .tu8192
        }
    }

    /// The slots both schedules hold, on a common primary channel at the narrower bandwidth, over
    /// the longer period (then normalized); nil when the primary channels differ.
    public func intersection(_ other: NDPSchedule) -> NDPSchedule? {
        guard channel.number == other.channel.number else { return nil }
        let period = max(periodSlots, other.periodSlots)
        let common = Set(repeated(toPeriodSlots: period).slots).intersection(
            other.repeated(toPeriodSlots: period).slots
        )
        return NDPSchedule(
            channel: channel,
            slots: Array(common),
            startOffset: startOffset,
            periodSlots: period,
            bandwidthMHz: min(bandwidthMHz, other.bandwidthMHz)
        ).normalized
    }

    /// Whether every slot of `other` is also here, on the same channel, over the longer period.
    public func contains(_ other: NDPSchedule) -> Bool {
        guard channel.number == other.channel.number else { return false }
        let period = max(periodSlots, other.periodSlots)
        return Set(other.repeated(toPeriodSlots: period).slots).isSubset(of: repeated(toPeriodSlots: period).slots)
    }

    /// The slots of the first 512 TU of the period: what an NDL QoS Minimum Time Slots is held
    /// against (hostap `nan_ndl_determine_status` counts the first 32 slots).
    public var slotsInFirstBlock: Int { slots.count { $0 < Self.slotsPerPeriod } }

    /// The longest run of slots without availability, across the period boundary, in slots.
    public var longestGapSlots: Int {
        guard let first = slots.first, let last = slots.last else { return periodSlots }
        var longest = first + periodSlots - last - 1
        for (previous, next) in zip(slots, slots.dropFirst()) { longest = max(longest, next - previous - 1) }
        return longest
    }
}

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
