import AwareWire

/// The data-channel availability of one side, or the committed schedule two sides agreed:
/// a channel and the 16 TU slots (0-31) of the 512 TU period (nan-wire-reference.md 2.7, 6:
/// "32 slots x 16 TU = 512 TU schedule").
public struct NDPSchedule: Hashable, Sendable {
    public static let slotsPerPeriod = PerformanceMode.periodTU / PerformanceMode.slotTU

    public var channel: NANChannel
    /// Slot numbers from the start of the 512 TU period, sorted, without duplicates.
    public var slots: [Int]
    /// Where the encoded time bitmap starts, in 16 TU units (Time Bitmap Control b6-14, 2.7).
    /// It changes only the encoding: bit i of the bitmap is slot (startOffset + i) mod 32.
    public var startOffset: UInt16

    public init(channel: NANChannel = .channel149, slots: [Int], startOffset: UInt16 = 0) {
        self.channel = channel
        self.slots = Array(Set(slots.filter { (0..<Self.slotsPerPeriod).contains($0) })).sorted()
        self.startOffset = startOffset % UInt16(Self.slotsPerPeriod)
    }

    /// The schedule of a performance mode on `channel`.
    public init(mode: PerformanceMode, channel: NANChannel = .channel149) {
        self.init(channel: channel, slots: mode.availableSlots)
    }

    public var isFull: Bool { slots.count == Self.slotsPerPeriod }

    /// 16 TU bits, 512 TU period, 4 octets (like ``PerformanceMode/timeBitmap``).
    public var timeBitmap: TimeBitmap {
        var octets = [UInt8](repeating: 0, count: Self.slotsPerPeriod / 8)
        let offset = Int(startOffset)
        for slot in slots {
            let bit = (slot - offset + Self.slotsPerPeriod) % Self.slotsPerPeriod
            octets[bit / 8] |= 1 << UInt8(bit % 8)
        }
        let control = TimeBitmapControl(bitDuration: .tu16, period: .tu512, startOffset: startOffset)
        return TimeBitmap(control: control, bitmap: octets)
    }

    /// The slots both schedules hold, on a common channel; nil when the channels differ.
    public func intersection(_ other: NDPSchedule) -> NDPSchedule? {
        guard channel.number == other.channel.number else { return nil }
        let common = Set(slots).intersection(other.slots)
        return NDPSchedule(channel: channel, slots: Array(common), startOffset: startOffset)
    }

    /// Whether every slot of `other` is also here, on the same channel.
    public func contains(_ other: NDPSchedule) -> Bool {
        channel.number == other.channel.number && Set(other.slots).isSubset(of: slots)
    }

    /// The longest run of slots without availability, across the period boundary, in slots.
    public var longestGapSlots: Int {
        guard let first = slots.first, let last = slots.last else { return Self.slotsPerPeriod }
        var longest = first + Self.slotsPerPeriod - last - 1
        for (previous, next) in zip(slots, slots.dropFirst()) { longest = max(longest, next - previous - 1) }
        return longest
    }
}
