import Foundation
import Testing

/// `accessory-emu reset`: the factory reset, through the built binary.
@Suite struct ResetCommandTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("awb-reset-\(UUID().uuidString.prefix(8))").path
    }

    /// A pairing store with two phones, as the accessory writes it (the format: Sources/AwareDevice/Pairing/PairingStore.swift).
    static let twoPeers = """
        {"format": 1, "ownNIK": "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "peers": [
          {"peerNMI": "02:b0:00:00:00:01", "peerNIK": "000102030405060708090a0b0c0d0e0f",
           "npk": "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f", "akm": "sae",
           "cipherSuite": 7, "pairedAt": 1700000000, "nikLifetimeSeconds": 0},
          {"peerNMI": "02:b0:00:00:00:02", "peerNIK": null,
           "npk": "7777777777777777777777777777777777777777777777777777777777777777", "akm": "pasn",
           "cipherSuite": 8, "pairedAt": 1700000100, "nikLifetimeSeconds": 3600}]}
        """

    /// Runs the binary with standard input from /dev/null, so it is never a terminal.
    static func reset(_ arguments: [String]) throws -> CommandRunner.Outcome {
        let process = Process()
        process.executableURL = CommandRunner.productsDirectory.appendingPathComponent("accessory-emu")
        process.arguments = ["reset"] + arguments
        process.currentDirectoryURL = CommandRunner.repository
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandRunner.Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    @Test func resetForgetsThePairingsAndTheIdentity() async throws {
        let directory = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A real run writes identity.json (boot 1).
        let first = try await StateDirectoryTests.run(directory, seed: 1)
        #expect(first.status == 0)
        try Self.twoPeers.write(toFile: directory + "/pairings.json", atomically: true, encoding: .utf8)

        let outcome = try Self.reset(["--state-dir", directory, "--yes"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput == "removed 2 paired devices and the identity\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/pairings.json"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/identity.json"))
        #expect(FileManager.default.fileExists(atPath: directory))

        // A new device: boot 1 again.
        let again = try StateDirectoryTests.readyEvent(try await StateDirectoryTests.run(directory, seed: 2))
        #expect(again["boot"] as? Int == 1)

        let empty = try Self.reset(["--state-dir", directory, "--yes"])
        #expect(empty.status == 0)
        #expect(empty.standardOutput == "removed 0 paired devices and the identity\n")
    }

    @Test func withoutYesAndWithoutATerminalNothingIsRemoved() async throws {
        let directory = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.twoPeers.write(toFile: directory + "/pairings.json", atomically: true, encoding: .utf8)
        let outcome = try Self.reset(["--state-dir", directory])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("add --yes"))
        #expect(try String(contentsOfFile: directory + "/pairings.json", encoding: .utf8) == Self.twoPeers)
    }

    @Test func aMissingDirectoryIsAUsageError() async throws {
        let directory = Self.temporaryPath()
        let outcome = try Self.reset(["--state-dir", directory, "--yes"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func aRunningEmulatorKeepsTheResetOut() async throws {
        let directory = Self.temporaryPath()
        let air = "/tmp/awb-reset-air-\(UUID().uuidString.prefix(6))"
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: air)
        }
        let emulator = Process()
        emulator.executableURL = CommandRunner.productsDirectory.appendingPathComponent("accessory-emu")
        emulator.arguments = [
            "--profile", "Fixtures/profiles/good/minimal.json", "--air", "socket:\(air)", "--json", "--state-dir",
            directory,
        ]
        emulator.currentDirectoryURL = CommandRunner.repository
        let output = Pipe()
        emulator.standardOutput = output
        emulator.standardError = FileHandle.nullDevice
        try emulator.run()
        defer {
            emulator.terminate()
            emulator.waitUntilExit()
        }
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("\"ready\"") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        let outcome = try Self.reset(["--state-dir", directory, "--yes"])
        #expect(outcome.status == 3)
        #expect(outcome.standardError.contains("in use by a running accessory-emu"))
        #expect(FileManager.default.fileExists(atPath: directory + "/identity.json"))
    }

    @Test func helpDocumentsTheExitStatus() async throws {
        let outcome = try await CommandRunner.run("accessory-emu", ["reset", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("EXIT STATUS"))
        #expect(outcome.standardOutput.contains("--yes"))
    }
}
