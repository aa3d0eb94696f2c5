import AccessoryKit
import AwareRadio
import Foundation

/// `--control-stdin`: commands for the running accessory, one JSON object per line on
/// standard input (docs/events.md). The runner's spawn target drives publish updates this
/// way. End of input stops the emulator, so a child never outlives the runner that owns it.
///
/// `@unchecked Sendable`: the reader thread only posts lines to the scheduler; the accessory
/// is touched only on the scheduler's thread, inside `handle`.
final class ControlChannel: @unchecked Sendable {
    private let accessory: Accessory
    private let scheduler: WallClockScheduler
    private let output: EventPrinter

    init(accessory: Accessory, scheduler: WallClockScheduler, output: EventPrinter) {
        self.accessory = accessory
        self.scheduler = scheduler
        self.output = output
    }

    func startReading() {
        Thread.detachNewThread { [self] in
            while let line = readLine(strippingNewline: true) {
                scheduler.post { [self] in handle(line) }
            }
            scheduler.stop()
        }
    }

    private func handle(_ line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let command = object["command"] as? String
        else {
            report("not a JSON command object: \(line.prefix(80))")
            return
        }
        switch command {
        case "update-service":
            guard let service = object["service"] as? String else {
                report("update-service needs \"service\"")
                return
            }
            let txt = (object["txt"] as? [String: String]) ?? [:]
            guard accessory.publishedInstances[service] != nil else {
                report("update-service: \(service) is not published")
                return
            }
            accessory.updateServiceInfo(service: service, txt: txt)
        default:
            report("unknown command \"\(command)\"; known: update-service")
        }
    }

    private func report(_ message: String) {
        output.print(
            AccessoryEvent(
                name: "control_error",
                time: scheduler.now,
                fields: [("message", .string(message))],
                text: "control: \(message)"
            )
        )
    }
}
