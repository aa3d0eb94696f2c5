import AwareCore
import AwareWire
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

    let condition = MonotonicCondition()
    /// CLOCK_MONOTONIC at creation: `now` counts from here. Zero in lockstep, where time is
    /// the air's shared virtual time.
    var origin: UInt64
    /// Lockstep virtual time (``enableLockstep(report:)``); nil follows the wall clock.
    var lockstep: LockstepTime?

    var queue = TimerQueue()
    var work: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1
    var stopRequested = false
    var executor: pthread_t?

    public init() {
        origin = MonotonicClock.nanoseconds()
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
            queue.insert(TimerQueue.Entry(deadline: deadline, id: id, rank: rank))
            if queue.first?.id == id { condition.broadcast() }
            return ScheduledWork(id: id)
        }
    }
}
