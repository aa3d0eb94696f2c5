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

    init(path: String, rssiDBm: Int = -50) throws {
        scheduler = WallClockScheduler()
        socketAir = try SocketAir(path: path, scheduler: scheduler, rssiDBm: rssiDBm)
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
    var accessoryEvents: [String] { [] }

    func perform(_ work: () -> Void) {
        scheduler.sync(work)
    }

    func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool {
        let deadline = scheduler.now + timeout
        while true {
            if scheduler.sync(condition) { return true }
            if scheduler.now >= deadline { return false }
            usleep(5_000)
        }
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

    func close() {
        scheduler.stop()
        socketAir.close()
    }
}
