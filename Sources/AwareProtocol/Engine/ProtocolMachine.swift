import AwareCore

/// A sans-I/O protocol machine: fed events with the time and a source of randomness, it
/// answers with actions, and never reads a clock, draws randomness, sleeps or does I/O.
///
/// Every machine speaks the same four actions (``MachineAction``), so one driver
/// (`MachineDriver` in AwareDevice) carries them out for all of them: it transmits, arms and
/// cancels timers on the scheduler, feeds a fired timer back as ``timerEvent(_:)``, and hands
/// notifications to the machine's owner. This is swift-nio-ssh's split: pure transitions in the
/// machines, timers and I/O in one place.
public protocol ProtocolMachine {
    /// What the owner (or the driver, for a timer) feeds the machine.
    associatedtype Event
    /// What goes out: a frame, a Follow-up for the discovery engine, an application message.
    associatedtype Transmission
    /// The machine's timers, by name; arming one that is armed moves it.
    associatedtype Timer: Hashable
    /// What the machine reports to its owner.
    associatedtype Notification

    typealias Action = MachineAction<Transmission, Timer, Notification>

    /// One transition: the actions come back in the order they must be carried out.
    mutating func handle(_ event: Event, now: Instant, rng: inout some RandomNumberGenerator) -> [Action]

    /// The event that tells the machine `timer` fired.
    static func timerEvent(_ timer: Timer) -> Event
}

/// What a ``ProtocolMachine`` asks its driver to do, in order.
public enum MachineAction<Transmission, Timer: Hashable, Notification> {
    /// Send this (a whole frame, a Follow-up request, an application message).
    case transmit(Transmission)
    /// Fire `timer` at the instant; arming an armed timer moves it.
    case arm(Timer, at: Instant)
    /// Disarm `timer`; disarming one that is not armed does nothing.
    case cancel(Timer)
    /// Tell the owner.
    case notify(Notification)
}

extension MachineAction: Equatable where Transmission: Equatable, Notification: Equatable {}
extension MachineAction: Hashable where Transmission: Hashable, Notification: Hashable {}
extension MachineAction: Sendable where Transmission: Sendable, Timer: Sendable, Notification: Sendable {}

extension MachineAction {
    /// The notification this action carries, if it is one.
    public var notification: Notification? {
        if case .notify(let notification) = self { notification } else { nil }
    }

    /// What this action transmits, if it transmits.
    public var transmission: Transmission? {
        if case .transmit(let transmission) = self { transmission } else { nil }
    }
}
