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
