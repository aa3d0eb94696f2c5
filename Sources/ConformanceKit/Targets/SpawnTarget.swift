import AwareCore
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
    /// The child and the runner share one virtual clock (`--target spawn?lockstep`): runs are
    /// deterministic across the two processes.
    public var lockstep = false

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
