import AccessoryKit
import AwareWire
import Foundation

/// Prints the accessory's events: a line per event for people, or JSON Lines for scripts.
/// Each line is flushed at once, so a script waiting for `ready` sees it immediately.
struct EventPrinter: AccessoryHostOutput {
    var json: Bool

    func print(_ event: AccessoryEvent) {
        let line =
            json
            ? event.json.serialized
            : "[\(String(format: "%10.6f", event.time.seconds))] \(event.text)"
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The accessory's display: the `pin_displayed` event with `--json`, otherwise a box a
    /// person reads. The only place a PIN is printed.
    func show(_ display: PINDisplay) {
        let text =
            json
            ? display.json.serialized + "\n"
            : PINDisplayBox.render(pin: display.pin, pairingName: display.pairingName, peer: display.peer)
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Standard error, named as the program: a problem the operator should see, not an event.
    func warn(_ text: String) {
        FileHandle.standardError.write(Data("accessory-emu: \(text)\n".utf8))
    }

    func banner(_ lines: [String]) {
        guard !json else { return }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
