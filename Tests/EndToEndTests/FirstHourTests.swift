import Foundation
import Testing

/// What a new user meets first (issue 13): mistakes in paths and targets are told at once and
/// plainly, and the commands the programs print can be pasted.
@Suite struct FirstHourTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("awb-first-hour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: ["--json", "--junit", "--html"])
    func aReportIntoAMissingDirectoryIsAUsageErrorBeforeAnyTest(option: String) async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json", option, "/nonexistent-awb/report.out"]
        )
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty, "no test ran: \(outcome.standardOutput)")
        #expect(
            outcome.standardError.contains(
                "\(option) /nonexistent-awb/report.out: the directory /nonexistent-awb does not exist"
            )
        )
    }

    @Test func aReportPathThatIsADirectoryIsAUsageError() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["merge", "whatever.json", "--json", directory.path]
        )
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--json \(directory.path): is a directory"))
    }

    @Test func aCaptureIntoAMissingDirectoryIsAUsageErrorForBothPrograms() async throws {
        let emulator = try await CommandRunner.run(
            "accessory-emu",
            [
                "--profile", "Profiles/drone.json", "--air", "sim", "--duration", "1", "--capture",
                "/nonexistent-awb/c.pcap",
            ]
        )
        #expect(emulator.status == 2)
        #expect(emulator.standardError.contains("--capture /nonexistent-awb/c.pcap: the directory /nonexistent-awb"))
        let discover = try await CommandRunner.run(
            "aware-conform",
            ["discover", "--profile", "Profiles/drone.json", "--capture", "/nonexistent-awb/c.pcap"]
        )
        #expect(discover.status == 2)
    }

    @Test func anEmptyAirEndsTheRunAtOnceSayingNothingWasHeard() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = directory.appendingPathComponent("air").path
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json", "--target", "socket:\(air)", "--wait", "1"]
        )
        #expect(outcome.status == 3)
        #expect(outcome.standardOutput.isEmpty, "no test ran: \(outcome.standardOutput)")
        #expect(
            outcome.standardError.contains(
                "no accessory published _drone-service._udp (service ID 3425f17bda31) on socket:\(air) within 1 s; "
                    + "nothing else was heard either"
            ),
            "\(outcome.standardError)"
        )
    }

    @Test func anAccessoryOfAnotherProfileIsNamedByWhatItPublishes() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = directory.appendingPathComponent("air").path
        let camera = try BackgroundProcess(
            "accessory-emu",
            ["--profile", "Profiles/camera.json", "--air", "socket:\(air)", "--json"]
        )
        defer { camera.stop() }
        try camera.waitForLine(containing: "\"event\":\"ready\"")
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json", "--target", "socket:\(air)", "--wait", "3"]
        )
        #expect(outcome.status == 3)
        #expect(outcome.standardError.contains("heard instead:"), "\(outcome.standardError)")
        // The camera's service, by the ID on the air: SHA-256("_camera-service._udp")[0..6].
        #expect(outcome.standardError.contains("publishes service ID"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("3425f17bda31 ("), "the drone's ID is only named as wanted")
    }

    /// The README's socket run twice against one accessory as the quick start starts it (no
    /// --state-dir, the shipped drone): the second run's phones pair again although the
    /// accessory still holds the first run's pairings and keys.
    @Test func aSecondRunAgainstTheSameAccessoryPairsAgain() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = directory.appendingPathComponent("air").path
        let drone = try BackgroundProcess(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "socket:\(air)", "--json"]
        )
        defer { drone.stop() }
        try drone.waitForLine(containing: "\"event\":\"ready\"")
        for run in 1...2 {
            let outcome = try await CommandRunner.run(
                "aware-conform",
                [
                    "run", "--profile", "Profiles/drone.json", "--target", "socket:\(air)", "--only", "WA/PAIR/BV-01",
                    "--only", "WA/PAIR/BV-03", "--only", "WA/NDP/BV-05", "--only", "WA/RECON/BV-01",
                ]
            )
            #expect(outcome.status == 0, "run \(run): \(outcome.standardOutput.suffix(1500))")
        }
    }

    @Test func bothProgramsReportTheirVersion() async throws {
        for program in ["aware-conform", "accessory-emu"] {
            let outcome = try await CommandRunner.run(program, ["--version"])
            #expect(outcome.status == 0)
            #expect(outcome.standardOutput.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
        }
    }

    @Test func rerunLinesNameTheProgramAsItWasRun() async throws {
        // A failing test (a fault breaks it) prints its rerun command: the path that ran, so it
        // pastes into the same shell.
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/DISC/SID/BV-01", "--fault", "wrong-service-id",
            ]
        )
        #expect(outcome.status == 1)
        let program = CommandRunner.productsDirectory.appendingPathComponent("aware-conform").path
        #expect(
            outcome.standardOutput.contains("rerun: \(program) run --profile Profiles/drone.json"),
            "\(outcome.standardOutput)"
        )
    }
}
