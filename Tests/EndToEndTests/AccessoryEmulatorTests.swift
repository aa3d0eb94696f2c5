import Foundation
import Testing

/// `accessory-emu` as a person or a script runs it.
@Suite struct AccessoryEmulatorTests {
    /// Issue 21, finding 8: `--capture` held every frame until exit. The file is now a whole
    /// capture while the accessory runs: decode reads the frames so far.
    @Test func itsCaptureIsReadableWhileItRuns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-emu-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("drone.pcapng").path
        // The simulated air without --duration runs at the wall clock's pace until SIGTERM.
        let emulator = try BackgroundProcess(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "sim", "--capture", capture, "--json"]
        )
        defer { emulator.stop() }
        try emulator.waitForLine(containing: "\"event\":\"ready\"")
        var frames = 0
        for _ in 0..<40 where frames < 2 {
            try await Task.sleep(for: .milliseconds(250))
            let decode = try await CommandRunner.run("aware-conform", ["decode", capture, "--json"])
            // A read may meet a record half written (the file grows as the kernel copies it);
            // the next read finds it whole.
            if decode.status == 0 { frames = decode.standardOutput.split(separator: "\n").count }
        }
        #expect(frames >= 2, "the capture of a running accessory holds no frames")
        #expect(emulator.process.isRunning)
        emulator.stop()
        #expect(emulator.process.terminationStatus == 0)
    }

    @Test func itsCaptureDecodesInTsharkWithTheServiceIDAndTheTXTKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-emu-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("drone.pcapng").path
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "sim", "--duration", "3", "--capture", capture]
        )
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/tshark"), "tshark not found: run ./ci/setup")
        let tshark = Process()
        tshark.executableURL = URL(fileURLWithPath: "/usr/bin/tshark")
        tshark.arguments = [
            "-r", capture, "-Y", "nan.service_id", "-T", "fields", "-e", "nan.service_id", "-e",
            "nan.sdea.service_info_specific",
        ]
        let output = Pipe()
        tshark.standardOutput = output
        tshark.standardError = FileHandle.nullDevice
        try tshark.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tshark.waitUntilExit()
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty, "tshark found no NAN service IDs")
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            // SHA-256("_drone-service._udp")[0..5], as public-vectors.json gives it.
            #expect(fields.first == "34:25:f1:7b:da:31")
            let octets =
                fields.dropFirst().first.map { $0.split(separator: "-").compactMap { UInt8($0, radix: 16) } } ?? []
            let ascii = String(decoding: octets, as: UTF8.self)
            #expect(ascii.contains("vendorName=Example Inc"))
            #expect(ascii.contains("modelName=Example Model"))
            #expect(ascii.contains("pairingName=My Drone"))
        }
    }

    @Test func jsonEventsStartWithReadyAndFollowTheirContract() async throws {
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "sim", "--duration", "3", "--json"]
        )
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.first?["event"] as? String == "ready")
        #expect(objects.first?["nmi"] is String)
        #expect(objects.last?["event"] as? String == "stopped")
        let document = try String(
            contentsOf: CommandRunner.repository.appendingPathComponent("docs/reference/events.md"),
            encoding: .utf8
        )
        for object in objects {
            let name = try #require(object["event"] as? String)
            #expect(object["t"] is Double || object["t"] is Int)
            #expect(document.contains("| `\(name)` |"), "event \(name) is not in docs/reference/events.md")
        }
    }

    @Test func anUnknownFaultIsAUsageError() async throws {
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--fault", "no-such-fault"]
        )
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown fault"))
    }

    /// Issue 21, finding 9: the null address is no station's address (nor is a group address).
    @Test(arguments: ["00:00:00:00:00:00", "01:00:5e:00:00:01"])
    func anNMIThatNoStationCanHaveIsAUsageError(_ nmi: String) async throws {
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "sim", "--duration", "1", "--nmi", nmi]
        )
        #expect(run.status == 2)
        #expect(run.standardError.contains("--nmi must be an individual MAC address other than 00:00:00:00:00:00"))
        #expect(run.standardOutput.isEmpty)
    }

    @Test func aBadProfileExitsTwoBeforeJoiningAnyAir() async throws {
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "/nonexistent.json", "--air", "sim", "--duration", "1"]
        )
        #expect(run.status == 2)
    }

    @Test func aPathThatIsNotADirectoryIsAnEnvironmentError() async throws {
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "socket:/etc/hostname"]
        )
        #expect(run.status == 3)
        #expect(run.standardError.contains("cannot join the air"))
    }
}
