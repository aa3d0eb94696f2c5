import AwareCore
import AwareProtocol
import AwareRadio

/// Drives one ``ProtocolMachine`` on a scheduler: the only code that carries out machine
/// actions. It feeds the machine its events with the scheduler's time and the owner's seeded
/// randomness, arms and cancels the machine's timers (feeding a fired one back as
/// ``ProtocolMachine/timerEvent(_:)``), and hands transmissions and notifications to the two
/// closures the owner gave it when it made the driver.
///
/// An owner may feed the machine again from inside either closure (a notification that leads
/// to a decision): the machine's transition is complete before any action is carried out, as
/// when actions were carried out by hand. Everything runs on the scheduler's thread.
public final class MachineDriver<Machine: ProtocolMachine> {
    /// The machine, for its owner to read (and, rarely, to replace: a fresh attempt).
    public var machine: Machine
    private let scheduler: any EventScheduler
    private let clock: Clock
    private let random: DeviceRandom
    private let transmit: (Machine.Transmission) -> Void
    private let notify: (Machine.Notification) -> Void
    private var timers: [Machine.Timer: ScheduledWork] = [:]

    /// Which clock the machine's instants are on.
    public enum Clock: Sendable {
        /// The scheduler's own (``EventScheduler/now``): the radio machines.
        case scheduler
        /// The clock every station of the air shares (``EventScheduler/sharedTimestamp(of:)``):
        /// application flows, whose messages carry timestamps the peer compares with its own.
        case shared
    }

    public init(
        _ machine: Machine,
        scheduler: any EventScheduler,
        clock: Clock = .scheduler,
        random: DeviceRandom,
        transmit: @escaping (Machine.Transmission) -> Void,
        notify: @escaping (Machine.Notification) -> Void
    ) {
        self.machine = machine
        self.scheduler = scheduler
        self.clock = clock
        self.random = random
        self.transmit = transmit
        self.notify = notify
    }

    /// For a machine that draws no randomness (its nonces, if any, come with its configuration
    /// or its events): its `rng` is a generator nothing draws from.
    public convenience init(
        _ machine: Machine,
        scheduler: any EventScheduler,
        clock: Clock = .scheduler,
        transmit: @escaping (Machine.Transmission) -> Void,
        notify: @escaping (Machine.Notification) -> Void
    ) {
        self.init(
            machine,
            scheduler: scheduler,
            clock: clock,
            random: DeviceRandom(seed: 0),
            transmit: transmit,
            notify: notify
        )
    }

    deinit { stop() }

    /// Now on the machine's clock.
    public var now: Instant {
        switch clock {
        case .scheduler: scheduler.now
        case .shared: Instant(nanoseconds: scheduler.sharedTimestamp(of: scheduler.now))
        }
    }

    /// Feeds `event` to the machine and carries out what it asks, in order; returns what it
    /// carried out (an owner that must know whether the machine answered at all).
    @discardableResult
    public func handle(_ event: Machine.Event) -> [Machine.Action] {
        let actions = machine.handle(event, now: now, rng: &random.generator)
        perform(actions)
        return actions
    }

    /// Carries out actions a machine returned outside ``handle(_:)`` (a machine's static
    /// helpers that answer without a transition).
    public func perform(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case .transmit(let transmission):
                transmit(transmission)
            case .arm(let timer, let instant):
                if let previous = timers[timer] { scheduler.cancel(previous) }
                // Unowned, not weak: a weak reference gives the driver a side table, and every
                // retain and release of it then takes the runtime's slow path (a profile of
                // `aware-bench discovery-soak` showed those paths grow). `deinit` cancels every
                // timer, so none fires after the driver is gone.
                timers[timer] = scheduler.schedule(at: schedulerInstant(instant)) { [unowned self] in
                    self.timers[timer] = nil
                    self.handle(Machine.timerEvent(timer))
                }
            case .cancel(let timer):
                if let work = timers.removeValue(forKey: timer) { scheduler.cancel(work) }
            case .notify(let notification):
                notify(notification)
            }
        }
    }

    /// Whether any timer is armed.
    public var hasArmedTimers: Bool { !timers.isEmpty }

    /// Disarms every timer: the owner stops the machine (the device leaves the air, the
    /// attempt is over). The machine hears nothing more from the driver.
    public func stop() {
        for work in timers.values { scheduler.cancel(work) }
        timers.removeAll()
    }

    private func schedulerInstant(_ instant: Instant) -> Instant {
        switch clock {
        case .scheduler: instant
        case .shared: scheduler.instant(ofSharedTimestamp: instant.nanoseconds)
        }
    }
}

/// A device's seeded randomness, shared by reference between the device's machines (through
/// their drivers) and the owner's own draws (PINs, nonces), so that one seed fixes the whole
/// sequence, in the order the draws happen.
public final class DeviceRandom {
    public var generator: SeededGenerator

    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }
    public init(_ generator: SeededGenerator) { self.generator = generator }
}
