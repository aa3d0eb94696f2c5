import AwareWire

/// Where the 16 TU availability slots of a NAN schedule fall on a device's own clock.
///
/// Schedules count slots from the cluster's TSF: slot 0 of every 512 TU period starts when the
/// TSF is a multiple of 512 TU, with the 2.4 GHz discovery window (nan-wire-reference.md 1.4,
/// 2.7). A device keeps its local clock and an offset (TSF = local + offset, ``ClusterStatus``),
/// so the slot boundaries move when the device adopts another cluster's TSF.
public struct DataSlotClock: Hashable, Sendable {
    public static let slotMicroseconds: Int64 = 16 * 1_024
    public static let slotsPerPeriod = 32
    public static let periodMicroseconds: Int64 = slotMicroseconds * Int64(slotsPerPeriod)

    /// TSF (µs) = local time (µs) + this offset.
    public var tsfOffsetMicroseconds: Int64

    public init(tsfOffsetMicroseconds: Int64) {
        self.tsfOffsetMicroseconds = tsfOffsetMicroseconds
    }

    private func tsf(at instant: Instant) -> Int64 {
        Int64(clamping: instant.nanoseconds / 1_000) &+ tsfOffsetMicroseconds
    }

    /// The slot (0-31) `instant` falls in.
    public func slot(at instant: Instant) -> Int {
        let position = tsf(at: instant) % Self.periodMicroseconds
        let inPeriod = position < 0 ? position + Self.periodMicroseconds : position
        return Int(inPeriod / Self.slotMicroseconds)
    }

    /// The start of the slot `instant` falls in.
    public func slotStart(containing instant: Instant) -> Instant {
        let position = tsf(at: instant) % Self.slotMicroseconds
        let into = position < 0 ? position + Self.slotMicroseconds : position
        return instant + Interval.microseconds(-into) + Interval(nanoseconds: -Int64(instant.nanoseconds % 1_000))
    }

    /// The next slot boundary strictly after `instant`.
    public func nextSlotStart(after instant: Instant) -> Instant {
        slotStart(containing: instant) + .microseconds(Self.slotMicroseconds)
    }

    /// The start of the next run of slots in `slots` at or after `instant`, and the end of that
    /// run (consecutive slots merge, across the period boundary too). nil when `slots` is empty.
    /// When `instant` is inside an available slot the window returned is the current one.
    public func window(atOrAfter instant: Instant, in slots: Set<Int>) -> (start: Instant, end: Instant)? {
        guard !slots.isEmpty else { return nil }
        var start = slotStart(containing: instant)
        var slot = self.slot(at: instant)
        var steps = 0
        while !slots.contains(slot) {
            start = start + .microseconds(Self.slotMicroseconds)
            slot = (slot + 1) % Self.slotsPerPeriod
            steps += 1
            if steps > Self.slotsPerPeriod { return nil }
        }
        var end = start + .microseconds(Self.slotMicroseconds)
        var next = (slot + 1) % Self.slotsPerPeriod
        var length = 1
        while slots.contains(next), length < Self.slotsPerPeriod {
            end = end + .microseconds(Self.slotMicroseconds)
            next = (next + 1) % Self.slotsPerPeriod
            length += 1
        }
        return (max(start, instant), end)
    }

    /// The start of the run of slots in `slots` that `instant` falls in (runs merge across the
    /// period boundary); `instant` itself when it is in no such slot.
    public func windowStart(containing instant: Instant, in slots: Set<Int>) -> Instant {
        var start = slotStart(containing: instant)
        var slot = self.slot(at: instant)
        guard slots.contains(slot) else { return instant }
        var steps = 0
        while steps < Self.slotsPerPeriod - 1 {
            let previous = (slot + Self.slotsPerPeriod - 1) % Self.slotsPerPeriod
            guard slots.contains(previous) else { break }
            slot = previous
            start = start + .microseconds(-Self.slotMicroseconds)
            steps += 1
        }
        return start
    }
}
