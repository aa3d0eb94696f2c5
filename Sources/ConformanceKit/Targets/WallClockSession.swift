import AwareRadio
import AwareWire
import Foundation

/// A session on the socket air under the wall clock: the phone runs on its own scheduler
/// thread, and the test waits in real time.
class WallClockSession: TargetSession {
    let scheduler: WallClockScheduler
    let socketAir: SocketAir

    init(path: String, rssiDBm: Int = -50) throws {
        scheduler = WallClockScheduler()
        socketAir = try SocketAir(path: path, scheduler: scheduler, rssiDBm: rssiDBm)
        scheduler.runInBackground()
    }

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

    func close() {
        scheduler.stop()
        socketAir.close()
    }
}
