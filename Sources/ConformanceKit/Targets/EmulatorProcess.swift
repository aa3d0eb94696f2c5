import AwareWire
import Foundation

/// A child `accessory-emu --json`: its event lines as they arrive, its standard error for
/// diagnostics, its standard input for control commands.
final class EmulatorProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    // Guarded by `condition`: filled by the reader thread, read by the test's thread.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var errorText = ""
    private var finished = false

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread.detachNewThread { [self] in readLines() }
        Thread.detachNewThread { [self] in readErrors() }
    }

    private func readLines() {
        var buffer = Data()
        let handle = output.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                condition.lock()
                lines.append(line)
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func readErrors() {
        let handle = errors.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            condition.lock()
            errorText += String(decoding: chunk, as: UTF8.self)
            condition.unlock()
        }
    }

    var eventLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    var standardErrorText: String {
        condition.lock()
        defer { condition.unlock() }
        return errorText
    }

    /// Waits for the first event named `name`; nil when the child ends or time runs out.
    func waitForEvent(_ name: String, timeout: TimeInterval) -> EventFields? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var seen = 0
        while true {
            while seen < lines.count {
                let line = lines[seen]
                seen += 1
                if let fields = EventFields(line: line), fields.string("event") == name { return fields }
            }
            if finished { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    func send(line: String) throws {
        do {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            throw TargetError("cannot send a command to accessory-emu: \(error)")
        }
    }

    /// SIGTERM, then SIGKILL if the child has not ended within two seconds.
    func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date(timeIntervalSinceNow: 2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The top-level string fields of one JSON event line.
struct EventFields {
    private let object: [String: Any]

    init?(line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            return nil
        }
        self.object = object
    }

    func string(_ key: String) -> String? { object[key] as? String }
}
