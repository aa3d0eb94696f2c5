import AwareTestSupport
import Foundation
import Testing

/// Lockstep virtual time between processes (`?lockstep`): the runner and `accessory-emu`
/// children share one clock, so a seed gives the same frames and pcap bytes on every run, as
/// in one process.
@Suite struct LockstepRunTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-lock-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every test's capture, by test directory name.
    static func captures(_ evidence: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: evidence.path) {
            let file = evidence.appendingPathComponent(name).appendingPathComponent("capture.pcap")
            if let data = FileManager.default.contents(atPath: file.path) { found[name] = data }
        }
        return found
    }

    static let selection = ["--only", "WA/DISC/PUB/*", "--only", "WA/PAIR/BV-01", "--only", "WA/RECON/BV-03"]

    @Test func aSeedReplaysAMultiProcessRunByteForByte() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var runs: [[String: Data]] = []
        for (index, seed) in ["7", "7", "8"].enumerated() {
            let evidence = directory.appendingPathComponent("run-\(index)")
            let outcome = try await CommandRunner.run(
                "aware-conform",
                [
                    "run", "--profile", "Profiles/drone.json", "--target", "spawn?lockstep", "--seed", seed, "--jobs",
                    "2",
                    "--evidence", evidence.path,
                ] + Self.selection
            )
            #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
            runs.append(try Self.captures(evidence))
        }
        #expect(runs[0].count >= 5, "\(runs[0].keys.sorted())")
        #expect(runs[0] == runs[1], "the same seed gives the same capture bytes in every test")
        // A restart (WA/RECON/BV-03 reboots the child through its control socket) replays too.
        #expect(runs[0]["WA_RECON_BV-03"] != nil)
        // Another seed gives other frames: the captures are not empty or fixed.
        #expect(runs[0].keys.filter { runs[0][$0] != runs[2][$0] }.count >= 1)
        // tshark reads them as a capture of NAN frames.
        let first = directory.appendingPathComponent("run-0/WA_PAIR_BV-01/capture.pcap").path
        let decoded = try ExternalTool.tshark(["-r", first, "-Y", "wlan.fixed.auth.alg == 7"])
        #expect(decoded.status == 0 && decoded.output.split(separator: "\n").count >= 3, "\(decoded.output)")
    }

    /// An accessory started by hand with `--air socket:PATH?lockstep`, and a runner joining
    /// with `--target socket:PATH?lockstep`: the runner's tests pass on the shared virtual clock.
    @Test func aRunnerJoinsAnAccessoryStartedOnALockstepAir() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = "/tmp/awb-l\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        defer { try? FileManager.default.removeItem(atPath: air) }
        let emulator = Process()
        emulator.executableURL = CommandRunner.productsDirectory.appendingPathComponent("accessory-emu")
        emulator.arguments = ["--profile", "Profiles/drone.json", "--air", "socket:\(air)?lockstep", "--json"]
        emulator.currentDirectoryURL = CommandRunner.repository
        let output = Pipe()
        emulator.standardOutput = output
        emulator.standardInput = Pipe()
        try emulator.run()
        defer {
            emulator.terminate()
            emulator.waitUntilExit()
        }
        // The accessory says ready before time starts (it waits for a second process).
        let ready = output.fileHandleForReading.availableData
        #expect(String(decoding: ready, as: UTF8.self).contains(#""event":"ready""#))
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--target", "socket:\(air)?lockstep", "--only",
                "WA/DISC/PUB/*",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
        #expect(outcome.standardOutput.contains("PASSED"))
    }
}
