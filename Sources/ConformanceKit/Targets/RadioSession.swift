import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// A session on a real radio: the phone runs on the radio's wall-clock scheduler thread and
/// the test waits in real time, as on the socket air. No display can be read over the air, so
/// ``displayedPINs`` stays empty.
final class RadioSession: TargetSession {
    let scheduler: WallClockScheduler
    let radio: NL80211Radio

    init(interface: String) throws {
        scheduler = WallClockScheduler()
        radio = try NL80211Radio(interfaceName: interface, scheduler: scheduler)
        scheduler.runInBackground()
    }

    var air: any Air { radio }
    var accessoryAddress: MACAddress? { nil }
    var now: Instant { scheduler.now }
    var accessoryEvents: [String] { [] }
    var displayedPINs: [DisplayedPIN] { [] }

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
        throw TargetError("\(radio.interface.name ?? "the radio")'s accessory cannot be told to update its publish")
    }

    func close() {
        scheduler.stop()
        radio.close()
    }
}
