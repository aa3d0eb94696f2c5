import AccessoryKit
import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// `--control-stdin`: control lines (docs/reference/control.md) on standard input, each answered with a
/// `control_reply` event on standard output (`control_error` when refused). The runner's spawn
/// target keeps this pipe open for the child's lifetime: end of input stops the emulator, so a
/// child never outlives the runner that owns it.
///
/// `@unchecked Sendable`: the reader thread only posts lines to the scheduler; the firmware is
/// touched only on the scheduler's thread.
final class ControlChannel: @unchecked Sendable {
    private let firmware: AccessoryFirmware
    private let scheduler: WallClockScheduler
    private let output: EventPrinter

    init(firmware: AccessoryFirmware, scheduler: WallClockScheduler, output: EventPrinter) {
        self.firmware = firmware
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
        let reply = firmware.perform(line: Array(line.utf8))
        let failed: Bool
        let text: String
        switch reply.outcome {
        case .success: (failed, text) = (false, "control: \(reply.command ?? "?") done")
        case .failure(let failure): (failed, text) = (true, "control: \(failure.message)")
        }
        var fields: [(String, JSONValue)] = [("reply", reply.json)]
        if case .failure(let failure) = reply.outcome { fields.insert(("message", .string(failure.message)), at: 0) }
        output.print(
            AccessoryEvent(
                name: failed ? "control_error" : "control_reply",
                time: scheduler.now,
                fields: fields,
                text: text
            )
        )
    }
}
