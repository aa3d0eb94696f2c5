import AwareWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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

    /// Partial line read so far; guarded by `condition`.
    private var pending = Data()

    /// Waits for the child's output and takes it in. The reading itself is ``drainLocked()``,
    /// which ``eventLines`` also calls, so a caller sees every line the child has written by
    /// then, not only those this thread got round to: in lockstep the child writes each line
    /// before it reports to the air's clock, so whatever it wrote before the virtual "now" is
    /// there to be read (a reconnect test once missed its `reconnected` line that way).
    private func readLines() {
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, -1) < 0 && errno != EINTR { break }
            condition.lock()
            let open = drainLocked()
            condition.broadcast()
            condition.unlock()
            if !open { return }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Reads what the pipe holds now, without waiting, and appends its complete lines; false
    /// once the child closed its output. Under `condition`'s lock.
    @discardableResult
    private func drainLocked() -> Bool {
        guard !finished else { return false }
        let descriptor = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
            finished = true
            return false
        }
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

    /// Every line the child has written so far.
    var eventLines: [String] {
        condition.lock()
        defer { condition.unlock() }
        drainLocked()
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
