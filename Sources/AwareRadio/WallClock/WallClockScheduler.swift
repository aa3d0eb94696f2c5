import AwareCore
import AwareWire
import Dispatch
import Foundation
import Glibc

/// An ``EventScheduler`` that follows the wall clock: one serial executor thread runs timed
/// work when the monotonic clock reaches it. `now` is the time since the scheduler was
/// created. This is what a device runs on when its frames travel through a ``SocketAir``.
///
/// Why a dedicated thread with a heap and a condition variable rather than a DispatchQueue
/// with a DispatchSourceTimer per item: work due at the same instant must run in the order
/// it was scheduled (as on the simulated air), cancelling must be exact, `run()` must be
/// able to own the caller's thread (the main thread of `accessory-emu`), and timed waits
/// follow CLOCK_MONOTONIC (``MonotonicCondition``). One heap and one wait do all of that.
///
/// Threads: ``schedule(at:_:)`` and ``cancel(_:)`` are meant for the executor thread (the
/// protocol's contract: everything a device touches runs there), or for setting up before
/// the executor starts; they are safe to call from anywhere, but their closures are not
/// `Sendable`. Work from other threads (a socket reader) goes through ``post(_:)``.
///
/// `@unchecked Sendable`: every stored mutable property is read and written only while
/// `condition` is locked; the stored closures run only on the executor thread.
public final class WallClockScheduler: EventScheduler, @unchecked Sendable {
    public func sharedTimestamp(of instant: Instant) -> UInt64 { origin &+ instant.nanoseconds }
    public func instant(ofSharedTimestamp timestamp: UInt64) -> Instant {
        Instant(nanoseconds: timestamp > origin ? timestamp - origin : 0)
    }

    public func calendarTime(of instant: Instant) -> CalendarTime {
        calendarOrigin + Interval(nanoseconds: Int64(clamping: instant.nanoseconds))
    }

    let condition = MonotonicCondition()
    /// CLOCK_REALTIME at creation: the calendar at ``Instant/zero`` (``calendarTime(of:)``).
    let calendarOrigin: CalendarTime
    /// CLOCK_MONOTONIC at creation: `now` counts from here. Zero in lockstep, where time is
    /// the air's shared virtual time.
    var origin: UInt64
    /// Lockstep virtual time (``enableLockstep(report:)``); nil follows the wall clock.
    var lockstep: LockstepTime?

    var queue = Heap<TimerEntry>()
    var work: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1
    var stopRequested = false
    var executor: pthread_t?

    public init() {
        origin = MonotonicClock.nanoseconds()
        calendarOrigin = CalendarTime(unixNanoseconds: Int64(clamping: MonotonicClock.unixNanoseconds()))
    }

    public var now: Instant {
        if let virtual = condition.withLock({ lockstep?.now }) { return Instant(nanoseconds: virtual) }
        return Instant(nanoseconds: MonotonicClock.nanoseconds() &- origin)
    }

    @discardableResult
    public func schedule(at instant: Instant, _ work: @escaping () -> Void) -> ScheduledWork {
        enqueue(deadline: origin &+ instant.nanoseconds, work)
    }

    public func cancel(_ scheduled: ScheduledWork) {
        condition.withLock { _ = work.removeValue(forKey: scheduled.id) }
    }

    /// Runs `work` on the executor as soon as it is free, after work already due. Safe from
    /// any thread; work posted from one thread runs in the order it was posted.
    public func post(_ work: @escaping @Sendable () -> Void) {
        let deferred = condition.withLock { () -> Bool in
            guard lockstep != nil else { return false }
            // Lockstep: posted work runs when the executor stands at a round's end or a hold,
            // a point every run reaches the same way (docs/reference/socket-air.md, "Lockstep").
            lockstep?.posted.append(work)
            condition.broadcast()
            return true
        }
        if !deferred { enqueue(deadline: MonotonicClock.nanoseconds(), work) }
    }

    /// Runs `body` on the executor and waits for it, like `DispatchQueue.sync`; on the
    /// executor thread itself it runs at once. The scheduler must be running (or start
    /// later); calling this after ``stop()`` is a programming error.
    @discardableResult
    public func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isExecutorThread { return try body() }
        precondition(!condition.withLock { stopRequested }, "WallClockScheduler.sync after stop()")
        return try withoutActuallyEscaping(body) { (escapable) throws(E) -> T in
            let handoff = SyncHandoff(escapable)
            post { handoff.run() }
            return try handoff.result()
        }
    }

    /// Whether the caller is running on the executor thread.
    public var isExecutorThread: Bool {
        let current = pthread_self()
        return condition.withLock { executor.map { pthread_equal($0, current) != 0 } ?? false }
    }

    /// Runs the executor on the calling thread until ``stop()``.
    public func run() {
        if condition.withLock({ lockstep != nil }) {
            runLockstep()
            return
        }
        condition.lock()
        precondition(executor == nil, "WallClockScheduler.run() while already running")
        executor = pthread_self()
        while !stopRequested {
            guard let next = queue.first else {
                condition.wait()
                continue
            }
            guard work[next.id] != nil else {
                queue.removeFirst()
                continue
            }
            if next.deadline > MonotonicClock.nanoseconds() {
                condition.wait(untilMonotonic: next.deadline)
                continue
            }
            queue.removeFirst()
            let body = work.removeValue(forKey: next.id)
            condition.unlock()
            body?()
            condition.lock()
        }
        executor = nil
        condition.unlock()
    }

    /// Starts the executor on a thread of its own and returns.
    public func runInBackground() {
        let thread = Thread { [self] in run() }
        thread.name = "WallClockScheduler"
        thread.start()
    }

    /// Stops the executor after the work it is running; work not yet run stays undone.
    /// Stopping is final.
    public func stop() {
        condition.withLock {
            stopRequested = true
            condition.broadcast()
        }
    }

    @discardableResult
    func enqueue(deadline: UInt64, rank: UInt64 = 0, _ body: @escaping () -> Void) -> ScheduledWork {
        condition.withLock {
            let id = nextID
            nextID += 1
            work[id] = body
            queue.insert(TimerEntry(deadline: deadline, id: id, rank: rank))
            if queue.first?.id == id { condition.broadcast() }
            return ScheduledWork(id: id)
        }
    }
}

// MARK: - TimerEntry

/// One scheduled work item in the scheduler's heap, ordered by (deadline, rank, id). The id grows
/// with every scheduled item, so items due at the same instant run in the order they were
/// scheduled.
struct TimerEntry: Comparable {
    var deadline: UInt64
    var id: UInt64
    /// Orders work due at the same instant before the id does: 0 for a process's own work;
    /// lockstep arrivals from other processes carry a rank drawn from what they are (their
    /// sender and token), so their order does not follow when the datagram happened to be
    /// read.
    var rank: UInt64 = 0

    static func < (lhs: TimerEntry, rhs: TimerEntry) -> Bool {
        (lhs.deadline, lhs.rank, lhs.id) < (rhs.deadline, rhs.rank, rhs.id)
    }

    static func == (lhs: TimerEntry, rhs: TimerEntry) -> Bool {
        (lhs.deadline, lhs.rank, lhs.id) == (rhs.deadline, rhs.rank, rhs.id)
    }
}

// MARK: - SyncHandoff

/// Carries a ``WallClockScheduler/sync(_:)`` body to the executor and its result back.
///
/// `@unchecked Sendable`: the body and result cross threads exactly once each, and the
/// caller blocks in ``result()`` for the whole time the executor uses them, so they are
/// never touched by two threads at once (the same argument as `DispatchQueue.sync`).
final class SyncHandoff<T, E: Error>: @unchecked Sendable {
    /// Dropped before signalling: `withoutActuallyEscaping` checks that no reference to the
    /// body outlives the wait, and the executor may still hold this handoff a moment longer.
    private var body: (() throws(E) -> T)?
    private var outcome: Result<T, E>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws(E) -> T) {
        self.body = body
    }

    func run() {
        outcome = execute()
        done.signal()
    }

    private func execute() -> Result<T, E>? {
        guard let work = body else { return nil }
        body = nil
        do throws(E) {
            return .success(try work())
        } catch {
            return .failure(error)
        }
    }

    func result() throws(E) -> T {
        done.wait()
        guard let outcome else { preconditionFailure("Handoff signalled without an outcome") }
        return try outcome.get()
    }
}

// MARK: - MonotonicClock

/// CLOCK_MONOTONIC in nanoseconds: never jumps when someone sets the date, so timers and
/// timeouts measured with it are immune to NTP steps. It counts from boot and stops during
/// suspend, which is what a radio's timers do too.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }

    /// CLOCK_REALTIME as nanoseconds since the Unix epoch: the one clock every process on a
    /// machine shares, so socket-air timestamps from different processes can be compared.
    static func unixNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}

// MARK: - MonotonicCondition

/// A mutex with a condition variable whose timed waits follow CLOCK_MONOTONIC.
///
/// `NSCondition.wait(until:)` takes a `Date`, i.e. the realtime clock: a step of the system
/// date would fire a timer early or hold it back. pthread lets the condition use the
/// monotonic clock instead (`pthread_condattr_setclock`).
///
/// `@unchecked Sendable`: the only state is the pthread mutex and condition, which exist to
/// be shared between threads; they live at a fixed heap address, as pthread requires.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, clockid_t(CLOCK_MONOTONIC))
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal; the caller holds the lock and rechecks its predicate after.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or until the monotonic clock reaches `deadline` (ns).
    func wait(untilMonotonic deadline: UInt64) {
        var time = timespec()
        time.tv_sec = Int(truncatingIfNeeded: deadline / 1_000_000_000)
        time.tv_nsec = Int(truncatingIfNeeded: deadline % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &time)
    }

    func broadcast() { pthread_cond_broadcast(condition) }
}
