import AwareCore
import AwareWire
import Glibc

extension WallClockScheduler {
    /// Switches to lockstep virtual time (docs/reference/socket-air.md, "Lockstep"): `now` becomes the
    /// air's shared virtual time, timed work runs only as far as the air's clock grants, and
    /// `report` tells the clock how far this process has come. Before ``run()``; the socket
    /// air calls it when it joins a lockstep air.
    func enableLockstep(held: Bool, report: @escaping (UInt64, UInt64) -> Void) {
        condition.withLock {
            lockstep = LockstepTime(held: held, report: report)
            // Deadlines are virtual nanoseconds from here on.
            origin = 0
        }
    }

    /// Schedules what arrived from another process at its virtual time, after this process's
    /// own work due at that instant and, among arrivals, in the order of `sender` and `token`:
    /// the same order every run, whatever order the datagrams were read in.
    func scheduleArrival(at time: UInt64, sender: MACAddress, token: UInt64, _ body: @escaping () -> Void) {
        let address = sender.octets.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        enqueue(deadline: time, rank: 1 << 63 | address << 14 | token & 0x3FFF, body)
    }

    /// Whether time here is the air's lockstep virtual time.
    public var isLockstep: Bool { condition.withLock { lockstep != nil } }

    /// The clock admitted this member: its time starts at `horizon` of round `round`.
    func lockstepAdmitted(round: UInt64, horizon: UInt64) {
        condition.withLock {
            guard lockstep != nil, lockstep?.admitted == false else { return }
            lockstep?.admitted = true
            lockstep?.round = round
            lockstep?.now = horizon
            lockstep?.horizon = horizon
            lockstep?.reported = nil
            condition.broadcast()
        }
    }

    /// The clock closed a round: work before `horizon` may run.
    func lockstepGranted(round: UInt64, horizon: UInt64) {
        condition.withLock {
            guard let time = lockstep, time.admitted, round > time.round else { return }
            lockstep?.round = round
            lockstep?.horizon = max(time.horizon, horizon)
            lockstep?.reported = nil
            lockstep?.earliestOutput = LockstepMessage.never
            condition.broadcast()
        }
    }

    /// Something this member sent arrives at another member at `arrival` (virtual ns).
    func lockstepOutput(arrivingAt arrival: UInt64) {
        condition.withLock {
            if let time = lockstep { lockstep?.earliestOutput = min(time.earliestOutput, arrival) }
        }
    }

    /// Lets time run until `condition` holds after a piece of work (checked on the executor),
    /// then holds it there and calls `reached` (on the executor). On a lockstep scheduler only.
    public func runLockstep(until condition: @escaping () -> Bool, then reached: @escaping () -> Void) {
        self.condition.withLock {
            lockstep?.holdWhen = condition
            lockstep?.onHold = reached
            lockstep?.held = false
            self.condition.broadcast()
        }
    }

    /// The lockstep executor: runs due work in time order up to the horizon, and at the end
    /// of each round (or while held) the work posted from other threads; reports to the
    /// air's clock whenever what it would say changes, and waits for grants.
    func runLockstep() {
        condition.lock()
        precondition(executor == nil, "WallClockScheduler.run() while already running")
        executor = pthread_self()
        while !stopRequested, var time = lockstep {
            // Due timed work, when admitted and not held: before the horizon, or at the time
            // this member already stands at (work for "now" does not move time).
            if time.admitted, !time.held, let next = nextTimed(),
                next.deadline < time.horizon || next.deadline <= time.now
            {
                queue.removeFirst()
                let body = work.removeValue(forKey: next.id)
                lockstep?.now = max(time.now, next.deadline)
                condition.unlock()
                body?()
                condition.lock()
                checkHold()
                continue
            }
            // At a round's end or a hold: the work other threads posted.
            if !time.posted.isEmpty {
                let posted = time.posted
                lockstep?.posted = []
                condition.unlock()
                for body in posted { body() }
                condition.lock()
                checkHold()
                continue
            }
            time = lockstep!
            if time.admitted, !time.held {
                let next = min(nextTimed()?.deadline ?? LockstepMessage.never, time.earliestOutput)
                if time.reported != next {
                    lockstep?.reported = next
                    let round = time.round
                    condition.unlock()
                    time.report(round, next)
                    condition.lock()
                    continue
                }
            }
            condition.wait()
        }
        executor = nil
        condition.unlock()
    }

    /// The first timed work not cancelled; under the lock.
    private func nextTimed() -> TimerEntry? {
        while let next = queue.first {
            if work[next.id] != nil { return next }
            queue.removeFirst()
        }
        return nil
    }

    /// Holds when the hold condition is met; under the lock, on the executor.
    private func checkHold() {
        guard let holdWhen = lockstep?.holdWhen, lockstep?.held == false else { return }
        condition.unlock()
        let reached = holdWhen()
        condition.lock()
        guard reached else { return }
        lockstep?.held = true
        lockstep?.holdWhen = nil
        let onHold = lockstep?.onHold
        lockstep?.onHold = nil
        condition.unlock()
        onHold?()
        condition.lock()
    }
}

// MARK: - LockstepTime

/// A member's side of lockstep virtual time: where its clock stands, how far the air's clock
/// lets it run, and what it has told the clock. Kept by ``WallClockScheduler`` under its lock.
struct LockstepTime {
    /// Virtual nanoseconds: the time of the work running or last run.
    var now: UInt64 = 0
    /// Whether the clock has admitted this member; until then nothing timed runs.
    var admitted = false
    var round: UInt64 = 0
    /// Timed work strictly before the horizon may run.
    var horizon: UInt64 = 0
    /// What this member last reported in `round`, so it reports again only when that changes.
    var reported: UInt64?
    /// The earliest arrival, at another member, of what this member sent in the round.
    var earliestOutput = LockstepMessage.never
    /// Work from other threads, run at a round's end or during a hold.
    var posted: [() -> Void] = []
    /// A hold keeps time where it is (a test inspecting the phone); posted work still runs.
    var held = false
    /// Checked after each piece of work while not held: when it holds, the executor holds.
    var holdWhen: (() -> Bool)?
    var onHold: (() -> Void)?
    /// Sends a report to the air's clock.
    let report: (_ round: UInt64, _ next: UInt64) -> Void
}
