import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `accessory-emu --state-dir`: what the accessory keeps across restarts, and how it
/// protects it.
@Suite struct StateDirectoryTests {
    static func readyEvent(_ outcome: CommandRunner.Outcome) throws -> [String: Any] {
        let first = try #require(outcome.standardOutput.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
    }

    static func run(
        _ directory: String,
        seed: Int,
        profile: String = "Fixtures/profiles/good/minimal.json"
    ) async throws -> CommandRunner.Outcome {
        try await CommandRunner.run(
            "accessory-emu",
            [
                "--profile", profile, "--air", "sim", "--duration", "1", "--json",
                "--seed", String(seed), "--state-dir", directory,
            ]
        )
    }

    @Test func theNMIAndTheBootCountSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-state-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.readyEvent(try await Self.run(directory, seed: 1))
        // Another seed would derive another NMI; the stored one wins.
        let second = try Self.readyEvent(try await Self.run(directory, seed: 2))
        #expect(first["nmi"] as? String == second["nmi"] as? String)
        #expect(first["boot"] as? Int == 1)
        #expect(second["boot"] as? Int == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/identity.json")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aDamagedFileIsReportedAndLeftAlone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-state-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "not json".write(toFile: directory + "/identity.json", atomically: true, encoding: .utf8)
        let outcome = try await Self.run(directory, seed: 1)
        #expect(outcome.status == 3)
        #expect(outcome.standardError.contains("is damaged"))
        #expect(outcome.standardError.contains("not valid JSON at line 1, column 1"))
        #expect(try String(contentsOfFile: directory + "/identity.json", encoding: .utf8) == "not json")
    }

    /// Issue 21, finding 3: a pairing store that does not read (cut short, not JSON, another
    /// program's JSON, a FIFO, a directory, a symbolic link loop) stops the emulator at start with
    /// exit 3, before a boot is counted, and is left exactly as it was (docs/guides/running-the-accessory.md).
    @Test(arguments: ["truncated", "garbage", "other-format", "fifo", "directory", "symlink-loop"])
    func aDamagedPairingStoreStopsTheStartAndIsLeftAlone(_ damage: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-state-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = directory + "/pairings.json"
        switch damage {
        case "truncated":
            try #"{"format": 1, "peers": [{"peerNMI": "02:b0"#.write(toFile: store, atomically: true, encoding: .utf8)
        case "garbage": try Data([0xFF, 0x00, 0x7B, 0x13]).write(to: URL(fileURLWithPath: store))
        case "other-format": try #"{"devices": []}"#.write(toFile: store, atomically: true, encoding: .utf8)
        case "fifo": #expect(mkfifo(store, 0o600) == 0)
        case "directory": try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
        default: #expect(symlink(store, store) == 0)
        }
        let before = Self.fingerprint(store)
        let outcome = try await Self.run(directory, seed: 1)
        #expect(outcome.status == 3, "\(damage): \(outcome.standardError)")
        #expect(outcome.standardError.contains("pairings.json is damaged"), "\(damage): \(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(Self.fingerprint(store) == before)
        #expect(!FileManager.default.fileExists(atPath: directory + "/identity.json"))
    }

    /// The file's type and contents as lstat(2) and a read show them.
    static func fingerprint(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "absent" }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { return "type \(type)" }
        return (FileManager.default.contents(atPath: path) ?? Data()).base64EncodedString()
    }

    @Test func aSecondEmulatorCannotShareTheDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-state-\(UUID().uuidString.prefix(8))"
        ).path
        let air = "/tmp/awb-lock-\(UUID().uuidString.prefix(6))"
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: air)
        }
        let first = Process()
        first.executableURL = CommandRunner.productsDirectory.appendingPathComponent("accessory-emu")
        first.arguments = [
            "--profile", "Fixtures/profiles/good/minimal.json", "--air", "socket:\(air)", "--json", "--state-dir",
            directory,
        ]
        first.currentDirectoryURL = CommandRunner.repository
        let output = Pipe()
        first.standardOutput = output
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        // Wait for its ready line: it holds the lock from then on.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("\"ready\"") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        let second = try await Self.run(directory, seed: 1)
        #expect(second.status == 3)
        #expect(second.standardError.contains("in use by another accessory-emu"))
    }

    /// Issue 21, finding 7: the wrong-PIN counts live in `lockout.json`, so a lockout in force when
    /// the accessory stopped (a kill -9 in the middle of it) is in force again when it starts, for a
    /// whole lockout; a damaged lockout file stops the start (exit 3) and is left alone.
    @Test func aLockoutInForceWhenTheAccessoryStoppedHoldsAtTheNextStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-state-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let lockout = directory + "/lockout.json"
        let saved = """
            {"format":"awarebench-pairing-lockout/1","overall":{"locked":false,"wrongPINs":3},
            "peers":[{"limiter":{"lastLockoutSeconds":60,"locked":true,"wrongPINs":3},"peer":"02:b0:00:00:00:07"}]}
            """
        try saved.write(toFile: lockout, atomically: true, encoding: .utf8)
        chmod(lockout, 0o600)
        // The drone pairs (minimal.json has no pairing section).
        let outcome = try await Self.run(directory, seed: 1, profile: "Profiles/drone.json")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let locked = outcome.standardOutput.split(separator: "\n").filter { $0.contains(#""event":"pairing_locked""#) }
        #expect(locked.count == 1, "\(outcome.standardOutput)")
        #expect(locked.first?.contains(#""peer":"02:b0:00:00:00:07""#) == true)
        #expect(locked.first?.contains(#""scope":"peer""#) == true)
        #expect(locked.first?.contains(#""seconds":60.0"#) == true)

        try "{\"format\":".write(toFile: lockout, atomically: true, encoding: .utf8)
        chmod(lockout, 0o600)
        let damaged = try await Self.run(directory, seed: 1, profile: "Profiles/drone.json")
        #expect(damaged.status == 3)
        #expect(damaged.standardError.contains("lockout.json is damaged"), "\(damaged.standardError)")
        #expect(try String(contentsOfFile: lockout, encoding: .utf8) == "{\"format\":")
    }
}
