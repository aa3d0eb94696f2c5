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
