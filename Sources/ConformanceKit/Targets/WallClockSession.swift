import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// A session on the socket air under the wall clock: the phone runs on its own scheduler
/// thread, and the test waits in real time.
class WallClockSession: TargetSession {
    let scheduler: WallClockScheduler
    let socketAir: SocketAir
    /// PINs read from the air's side channel, where an accessory's display publishes them.
    private var sideChannelPINs: [DisplayedPIN] = []
    /// The PINs are read from the scheduler's thread (the phone asks while pairing) and from
    /// the test's: a lock, not `scheduler.sync`, which would deadlock on the scheduler thread.
    private let pinLock = NSLock()

    /// `lockstep`: the air's processes share one virtual clock; this session's time stands
    /// still except inside ``run(until:timeout:)``, so the test's own steps happen at the same
    /// virtual moments every run.
    init(path: String, rssiDBm: Int = -50, lockstep: Bool = false) throws {
        scheduler = WallClockScheduler()
        socketAir = try SocketAir(
            path: path,
            scheduler: scheduler,
            rssiDBm: rssiDBm,
            lockstep: lockstep,
            startsHeld: true
        )
        // Before the scheduler runs, nothing else touches the air: no sync needed (and sync on a
        // scheduler that is not running yet would wait forever).
        socketAir.eventHandler = { [weak self] payload in
            guard let self, let pin = displayedPIN(inEventLine: String(decoding: payload, as: UTF8.self)) else {
                return
            }
            self.pinLock.withLock { self.sideChannelPINs.append(pin) }
        }
        scheduler.runInBackground()
    }

    var displayedPINs: [DisplayedPIN] { pinLock.withLock { sideChannelPINs } }

    var air: any Air { socketAir }
    var accessoryAddress: MACAddress? { nil }
    var now: Instant { scheduler.now }
    /// This session's virtual time (ns) on a lockstep air, for a command that must take effect
    /// then; nil on the wall clock.
    var lockstepTime: UInt64? { socketAir.isLockstep ? scheduler.now.nanoseconds : nil }
    var accessoryEvents: [String] { [] }

    func perform(_ work: () -> Void) {
        scheduler.sync(work)
    }

    func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool {
        if socketAir.isLockstep { return runLockstep(until: condition, timeout: timeout) }
        let deadline = scheduler.now + timeout
        while true {
            if scheduler.sync(condition) { return true }
            if scheduler.now >= deadline { return false }
            usleep(5_000)
        }
    }

    /// Lockstep: virtual time runs until `condition` holds after some work, or `timeout`
    /// passes, and then stands still again. With `wallLimit`, also after that many seconds of
    /// real time: a lone member's clock does not move (time runs only with two or more
    /// processes), so waiting for an accessory that is not there would otherwise never end.
    private func runLockstep(until condition: @escaping () -> Bool, timeout: Interval, wallLimit: Double? = nil) -> Bool
    {
        if scheduler.sync(condition) { return true }
        let reached = DispatchSemaphore(value: 0)
        let scheduler = self.scheduler
        scheduler.sync {
            let deadline = scheduler.now + timeout
            // Something to run at the deadline, so time gets there even on a quiet air.
            scheduler.schedule(at: deadline) {}
            scheduler.runLockstep(until: { condition() || scheduler.now >= deadline }, then: { reached.signal() })
        }
        if let wallLimit {
            if reached.wait(timeout: .now() + wallLimit) == .timedOut {
                // Hold at once: the next posted work (the sync below) checks the new condition.
                scheduler.runLockstep(until: { true }, then: {})
                scheduler.sync {}
            }
        } else {
            reached.wait()
        }
        return scheduler.sync(condition)
    }

    /// ``run(until:timeout:)`` that also gives up after `wallLimit` seconds of real time (it
    /// matters in lockstep only: elsewhere time is the wall clock).
    func run(until condition: @escaping () -> Bool, timeout: Interval, wallLimit: Double) -> Bool {
        guard socketAir.isLockstep else { return run(until: condition, timeout: timeout) }
        return runLockstep(until: condition, timeout: timeout, wallLimit: wallLimit)
    }

    func updateServiceInfo(service: String, txt: [String: String]) throws {
        throw TargetError("this target cannot drive the accessory's publish updates")
    }

    func restartAccessory(newAddress: MACAddress?) throws {
        throw TargetError("the accessory on this air was started outside the runner: it cannot be restarted")
    }

    func factoryResetAccessory() throws {
        throw TargetError("the accessory on this air was started outside the runner: it cannot be reset")
    }

    func enterPINOnAccessory(_ pin: String) throws {
        throw TargetError("the accessory on this air was started outside the runner: the runner cannot type into it")
    }

    var entersPINOnAccessory: Bool { false }

    func close() {
        scheduler.stop()
        socketAir.close()
    }
}
