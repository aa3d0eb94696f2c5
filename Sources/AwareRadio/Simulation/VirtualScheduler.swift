import AwareCore
import AwareWire

/// A discrete-event scheduler under virtual time: the clock of ``SimulatedAir``.
///
/// Work waits in a binary min-heap keyed by (time, sequence number), so work due at the
/// same instant runs in the order it was scheduled. `now` never moves on its own: it jumps
/// to an event's time when that event runs (or to the end of a ``run(until:)``), so an hour
/// of virtual time costs only the events that happen in it. There are no threads and no
/// timers: whoever owns the scheduler drives it with ``step()``, ``run(until:)`` or
/// ``runUntilIdle(limit:)``, and work may schedule and cancel more work as it runs.
///
/// Cancelling is lazy: the closure is dropped at once (O(1)) and its heap entry stays as a
/// tombstone that is skipped when it reaches the top. When tombstones outnumber live work
/// the heap is rebuilt without them (O(n)), so re-armed timers cannot grow it without
/// bound. Heap entries are three plain words and the closures live in a side table indexed
/// by slot, so sifting moves no reference counts.
public final class VirtualScheduler: EventScheduler {
    public func sharedTimestamp(of instant: Instant) -> UInt64 { instant.nanoseconds }
    public func instant(ofSharedTimestamp timestamp: UInt64) -> Instant { Instant(nanoseconds: timestamp) }
    public func calendarTime(of instant: Instant) -> CalendarTime {
        calendarOrigin + Interval(nanoseconds: Int64(clamping: instant.nanoseconds))
    }

    /// The calendar at ``Instant/zero``: by default the host's clock when the scheduler was
    /// made, so that what a simulated device persists (`pairedAt`) carries a real date; a test
    /// that wants a fixed date, or days to pass without simulating them, sets it.
    public var calendarOrigin: CalendarTime

    /// The time of the event running now, or of the last one that ran.
    public private(set) var now: Instant
    /// How many work items have run since the scheduler was made.
    public private(set) var executedCount: UInt64 = 0

    private struct Entry: Comparable {
        var time: UInt64
        var sequence: UInt64
        var slot: UInt32

        @inline(__always)
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.time == rhs.time && lhs.sequence == rhs.sequence }
    }

    private var heap = Heap<Entry>()
    /// The work of each slot; nil once cancelled (a tombstone in the heap) or free.
    private var work: [(() -> Void)?] = []
    /// Bumped every time a slot is freed, so a stale ``ScheduledWork`` cannot cancel newer work.
    private var generations: [UInt32] = []
    private var freeSlots: [UInt32] = []
    private var nextSequence: UInt64 = 0
    private var tombstones = 0

    /// Tombstones tolerated before a rebuild is considered.
    private static let compactionFloor = 1_024

    public init(start: Instant = .zero, calendarOrigin: CalendarTime? = nil) {
        now = start
        self.calendarOrigin =
            calendarOrigin ?? CalendarTime(unixNanoseconds: Int64(clamping: MonotonicClock.unixNanoseconds()))
    }

    /// Work scheduled and neither run nor cancelled yet.
    public var pendingCount: Int { heap.count - tombstones }

    /// Whether no work is waiting.
    public var isIdle: Bool { pendingCount == 0 }

    /// The time of the next work to run, if any.
    public var nextEventTime: Instant? {
        discardCancelledTop()
        return heap.first.map { Instant(nanoseconds: $0.time) }
    }

    /// Schedules `work` at `instant`; work in the past runs at `now`, after the work already
    /// due at `now`.
    @discardableResult
    public func schedule(at instant: Instant, _ work: @escaping () -> Void) -> ScheduledWork {
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            self.work[Int(slot)] = work
        } else {
            slot = UInt32(truncatingIfNeeded: self.work.count)
            self.work.append(work)
            generations.append(0)
        }
        let time = max(instant.nanoseconds, now.nanoseconds)
        heap.insert(Entry(time: time, sequence: nextSequence, slot: slot))
        nextSequence &+= 1
        return ScheduledWork(id: UInt64(generations[Int(slot)]) << 32 | UInt64(slot))
    }

    /// Cancels work that has not run; a no-op for work that ran or was cancelled already.
    public func cancel(_ handle: ScheduledWork) {
        let slot = Int(truncatingIfNeeded: handle.id & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: handle.id >> 32)
        guard slot < work.count, generations[slot] == generation, work[slot] != nil else { return }
        work[slot] = nil
        tombstones += 1
        if tombstones > Self.compactionFloor, tombstones > heap.count / 2 { compact() }
    }

    /// Runs the next piece of work, moving `now` to its time. Returns false when there is none.
    @discardableResult
    public func step() -> Bool {
        while let top = heap.first {
            heap.removeFirst()
            let slot = Int(top.slot)
            guard let next = work[slot] else {
                tombstones -= 1
                release(slot)
                continue
            }
            work[slot] = nil
            release(slot)
            now = Instant(nanoseconds: top.time)
            executedCount &+= 1
            next()
            return true
        }
        return false
    }

    /// Runs every piece of work due at or before `instant`, including work scheduled while
    /// running, then leaves `now` at `instant` (if it is later): the caller asked for that
    /// much time to pass.
    public func run(until instant: Instant) {
        // Cancelled work at the top goes first: ``step()`` skips it and runs the next live work,
        // which may be due after `instant` (a timer moved later left its old entry behind).
        while let next = nextEventTime, next <= instant {
            step()
        }
        if instant > now { now = instant }
    }

    /// Runs for `interval` of virtual time from `now`.
    public func run(for interval: Interval) {
        run(until: now + interval)
    }

    /// Runs until no work is left, or `limit` pieces of work have run (a guard against work
    /// that re-arms itself forever). Returns how many ran; ``isIdle`` tells which happened.
    @discardableResult
    public func runUntilIdle(limit: Int = 100_000_000) -> Int {
        var count = 0
        while count < limit, step() { count += 1 }
        return count
    }

    private func release(_ slot: Int) {
        generations[slot] &+= 1
        freeSlots.append(UInt32(truncatingIfNeeded: slot))
    }

    private func discardCancelledTop() {
        while let top = heap.first, work[Int(top.slot)] == nil {
            heap.removeFirst()
            tombstones -= 1
            release(Int(top.slot))
        }
    }

    /// Drops every tombstone and restores the heap property bottom-up (Floyd's heapify).
    /// The pop order is unchanged: (time, sequence) is a total order.
    private func compact() {
        for entry in heap.unordered where work[Int(entry.slot)] == nil { release(Int(entry.slot)) }
        heap.filter { work[Int($0.slot)] != nil }
        tombstones = 0
    }
}
