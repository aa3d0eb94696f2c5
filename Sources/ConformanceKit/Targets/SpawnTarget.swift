import AwareRadio
import AwareWire
import Foundation

/// The runner starts `accessory-emu` child processes itself, one per test, each on a private
/// socket air, so every test (profile variants, restarts) runs against a real process, as
/// Matter's runner owns its device under test.
public struct SpawnTarget: AccessoryTarget {
    public let emulatorPath: String
    public let profileDocument: Data
    public let capabilities: TargetCapabilities
    /// How long to wait for the child's `ready` event.
    public var readyTimeout: TimeInterval

    public init(emulatorPath: String, profileDocument: Data, profile: ProfileFacts, readyTimeout: TimeInterval = 20) {
        self.emulatorPath = emulatorPath
        self.profileDocument = profileDocument
        self.readyTimeout = readyTimeout
        capabilities = TargetCapabilities(target: "spawn", profile: profile)
    }

    public var name: String { "spawn" }
    public var clock: TestClock { .wall }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        var document = profileDocument
        if let variant = request.variant { document = try variant.apply(to: profileDocument) }
        // A short private directory: socket paths must fit sun_path (docs/socket-air.md).
        let directory = "/tmp/awb-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        try FileManager.default.createDirectory(
            atPath: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let profilePath = directory + "/profile.json"
        try document.write(to: URL(fileURLWithPath: profilePath))
        let airPath = directory + "/air"
        var arguments = ["run", "--profile", profilePath, "--air", "socket:\(airPath)", "--json", "--control-stdin"]
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
        let session = try SpawnedSession(
            path: airPath,
            rssiDBm: request.linkRSSIDBm,
            directory: directory,
            child: child,
            launcher: launcher
        )
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

    /// `accessory-emu reset --state-dir DIR --yes`, the factory reset a person would run.
    func reset(stateDirectory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["reset", "--state-dir", stateDirectory, "--yes"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TargetError("accessory-emu reset failed (\(process.terminationStatus)): \(text)")
        }
    }
}

final class SpawnedSession: WallClockSession {
    let directory: String
    let launcher: EmulatorLauncher
    private(set) var child: EmulatorProcess
    /// Events of the children this session already stopped (restarts).
    private var earlierEvents: [String] = []
    var address: MACAddress?

    init(path: String, rssiDBm: Int, directory: String, child: EmulatorProcess, launcher: EmulatorLauncher) throws {
        self.directory = directory
        self.child = child
        self.launcher = launcher
        try super.init(path: path, rssiDBm: rssiDBm)
    }

    override var accessoryAddress: MACAddress? { address }
    /// The child's stdout is its display as well as its event log: the display's lines stay
    /// out of the evidence (the PIN appears nowhere but on the display).
    override var accessoryEvents: [String] {
        (earlierEvents + child.eventLines).filter { displayedPIN(inEventLine: $0) == nil }
    }

    /// A real process restart: SIGTERM, then a new `accessory-emu` on the same state directory.
    override func restartAccessory(newAddress: MACAddress?) throws {
        earlierEvents += child.eventLines
        child.terminate()
        let (next, ready) = try launcher.launch(newAddress: newAddress)
        child = next
        address = ready.string("nmi").flatMap(MACAddress.init(string:))
    }

    override func factoryResetAccessory() throws {
        earlierEvents += child.eventLines
        child.terminate()
        try launcher.reset(stateDirectory: directory + "/state")
        let (next, ready) = try launcher.launch(newAddress: nil)
        child = next
        address = ready.string("nmi").flatMap(MACAddress.init(string:))
    }

    override func updateServiceInfo(service: String, txt: [String: String]) throws {
        let command = JSONValue.object([
            ("command", .string("update-service")),
            ("service", .string(service)),
            ("txt", .object(txt.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
        try child.send(line: command.serialized)
    }

    override func close() {
        super.close()
        child.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
