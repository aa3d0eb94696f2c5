import AwareCore
import AwareWire

/// Runs timed work on one thread, in time order: the only place time passes.
///
/// Under virtual time (``SimulatedAir``) `now` jumps from event to event and an hour of
/// discovery costs milliseconds; under the wall clock (``SocketAir``) `now` follows a
/// monotonic clock. Everything that touches a device (its protocol machines, its port on
/// the air) runs on the scheduler's thread, so none of it needs locks.
public protocol EventScheduler: AnyObject {
    /// The current time on this scheduler's clock.
    var now: Instant { get }

    /// Runs `work` at `instant` (at once if it is in the past). Work scheduled for the same
    /// instant runs in the order it was scheduled.
    @discardableResult
    func schedule(at instant: Instant, _ work: @escaping () -> Void) -> ScheduledWork

    /// Cancels work that has not run yet; cancelling twice, or after it ran, does nothing.
    func cancel(_ work: ScheduledWork)

    /// `instant` on a clock every station of the air shares, in nanoseconds: virtual time on
    /// the simulated air, CLOCK_MONOTONIC (since boot) under the wall clock, so that processes
    /// on one machine can stamp application data and measure one-way latency.
    func sharedTimestamp(of instant: Instant) -> UInt64

    /// The inverse of ``sharedTimestamp(of:)``.
    func instant(ofSharedTimestamp timestamp: UInt64) -> Instant
}

extension EventScheduler {
    @discardableResult
    public func schedule(after interval: Interval, _ work: @escaping () -> Void) -> ScheduledWork {
        schedule(at: now + interval, work)
    }
}

/// A handle to scheduled work, for cancelling it.
public struct ScheduledWork: Hashable, Sendable {
    public let id: UInt64
    public init(id: UInt64) { self.id = id }
}
