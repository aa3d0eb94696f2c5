import Glibc

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
