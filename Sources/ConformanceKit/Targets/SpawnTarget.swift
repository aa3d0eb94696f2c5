import AwareCore
import AwareRadio
import AwareWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The runner starts `accessory-emu` child processes itself, one per test, each on a private
/// socket air, so every test (profile variants, restarts) runs against a real process, as
/// Matter's runner owns its device under test.
public struct SpawnTarget: AccessoryTarget {
    public let emulatorPath: String
    public let profileDocument: Data
    public let capabilities: TargetCapabilities
    /// How long to wait for the child's `ready` event.
    public var readyTimeout: TimeInterval
    /// The child and the runner share one virtual clock (`--target spawn?lockstep`): runs are
    /// deterministic across the two processes.
    public var lockstep = false
    /// The PIN from `--pin` or `--pin-command` instead of the display (the accessory is the
    /// runner's own, so it needs no power switch or prompt).
    public var operatorAccess = OperatorAccess()

    public init(emulatorPath: String, profileDocument: Data, profile: ProfileFacts, readyTimeout: TimeInterval = 20) {
        self.emulatorPath = emulatorPath
        self.profileDocument = profileDocument
        self.readyTimeout = readyTimeout
        capabilities = TargetCapabilities(target: "spawn", profile: profile)
    }

    public var name: String { lockstep ? "spawn?lockstep" : "spawn" }
    public var clock: TestClock { .wall }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        var document = profileDocument
        if let variant = request.variant { document = try variant.apply(to: profileDocument) }
        // A short private directory: socket paths must fit sun_path (docs/reference/socket-air.md).
        let directory = "/tmp/awb-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        try FileManager.default.createDirectory(
            atPath: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let profilePath = directory + "/profile.json"
        try document.write(to: URL(fileURLWithPath: profilePath))
        let airPath = directory + "/air"
        // Standard input stays open for the child's lifetime (its end stops the child); the
        // lifecycle steps go through the control socket (docs/reference/control.md).
        let controlPath = directory + "/control"
        let air = "socket:\(airPath)" + (lockstep ? AirSpecifier.lockstepSuffix : "")
        var arguments = ["run", "--profile", profilePath, "--air", air, "--json", "--control-stdin"]
        arguments += ["--control", controlPath]
        arguments += ["--seed", String(request.seed), "--socket-rssi=\(request.linkRSSIDBm)"]
        // Each session's accessory keeps its pairings here, across the restarts a test asks for.
        arguments += ["--state-dir", directory + "/state"]
        for fault in request.faults { arguments += ["--fault", fault] }
        if request.unsynchronized { arguments.append("--unsynchronized") }
        if let mode = request.accessoryMode { arguments += ["--mode", mode.rawValue] }
        let launcher = EmulatorLauncher(executable: emulatorPath, arguments: arguments, readyTimeout: readyTimeout)
        let child: EmulatorProcess
        let ready: EventFields
        do {
            (child, ready) = try launcher.launch(newAddress: nil)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        let session: SpawnedSession
        do {
            session = try SpawnedSession(
                path: airPath,
                rssiDBm: request.linkRSSIDBm,
                directory: directory,
                child: child,
                control: AccessoryControlClient(path: controlPath),
                lockstep: lockstep
            )
        } catch {
            child.terminate()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        session.address = ready.string("nmi").flatMap(MACAddress.init(string:))
        return session
    }
}

/// Starts `accessory-emu` with a session's arguments and waits for `ready`.
struct EmulatorLauncher {
    let executable: String
    let arguments: [String]
    let readyTimeout: TimeInterval

    func launch(newAddress: MACAddress?) throws -> (EmulatorProcess, EventFields) {
        var arguments = arguments
        if let newAddress { arguments += ["--nmi", newAddress.description] }
        let child = try EmulatorProcess(executable: executable, arguments: arguments)
        guard let ready = child.waitForEvent("ready", timeout: readyTimeout) else {
            child.terminate()
            throw TargetError(
                "accessory-emu did not become ready within \(Int(readyTimeout)) s: \(child.standardErrorText.suffix(400))"
            )
        }
        return (child, ready)
    }
}

final class SpawnedSession: WallClockSession {
    let directory: String
    let child: EmulatorProcess
    let control: AccessoryControlClient
    var address: MACAddress?

    init(
        path: String,
        rssiDBm: Int,
        directory: String,
        child: EmulatorProcess,
        control: AccessoryControlClient,
        lockstep: Bool
    ) throws {
        self.directory = directory
        self.child = child
        self.control = control
        try super.init(path: path, rssiDBm: rssiDBm, lockstep: lockstep)
    }

    override var accessoryAddress: MACAddress? { address }
    /// The child's stdout is its display as well as its event log: the display's lines stay
    /// out of the evidence (the PIN appears nowhere but on the display).
    override var accessoryEvents: [String] {
        child.eventLines.filter { displayedPIN(inEventLine: $0) == nil }
    }

    /// A power cycle through the control socket: the child stops its accessory, reads its state
    /// directory again and starts under a new boot count (and `newAddress`, if given).
    override func restartAccessory(newAddress: MACAddress?) throws {
        address = try control.reboot(newAddress: newAddress) ?? address
    }

    /// The factory reset through the control socket: pairings and identity gone, then a start.
    override func factoryResetAccessory() throws {
        address = try control.factoryReset() ?? address
    }

    override func updateServiceInfo(service: String, txt: [String: String]) throws {
        try control.updateService(service, txt: txt)
    }

    override func enterPINOnAccessory(_ pin: String) throws {
        try control.enterPIN(pin, at: lockstepTime)
    }

    override var entersPINOnAccessory: Bool { true }

    /// `shutdown` on the control socket, the way a harness stops its device; SIGTERM if the
    /// child does not go.
    override func close() {
        super.close()
        _ = try? control.request("shutdown")
        control.close()
        child.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

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
    private let object: JSONValue

    init?(line: String) {
        guard let object = try? JSONValue(parsing: line), object.objectValue != nil else { return nil }
        self.object = object
    }

    func string(_ key: String) -> String? { object[key]?.stringValue }
}
