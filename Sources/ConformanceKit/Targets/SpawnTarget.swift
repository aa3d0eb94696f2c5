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
        for fault in request.faults { arguments += ["--fault", fault] }
        if request.unsynchronized { arguments.append("--unsynchronized") }
        let child = try EmulatorProcess(executable: emulatorPath, arguments: arguments)
        guard let ready = child.waitForEvent("ready", timeout: readyTimeout) else {
            child.terminate()
            try? FileManager.default.removeItem(atPath: directory)
            throw TargetError(
                "accessory-emu did not become ready within \(Int(readyTimeout)) s: \(child.standardErrorText.suffix(400))"
            )
        }
        let session = try SpawnedSession(
            path: airPath,
            rssiDBm: request.linkRSSIDBm,
            directory: directory,
            child: child
        )
        session.address = ready.string("nmi").flatMap(MACAddress.init(string:))
        return session
    }
}

final class SpawnedSession: WallClockSession {
    let directory: String
    let child: EmulatorProcess
    var address: MACAddress?

    init(path: String, rssiDBm: Int, directory: String, child: EmulatorProcess) throws {
        self.directory = directory
        self.child = child
        try super.init(path: path, rssiDBm: rssiDBm)
    }

    override var accessoryAddress: MACAddress? { address }
    override var accessoryEvents: [String] { child.eventLines }

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
