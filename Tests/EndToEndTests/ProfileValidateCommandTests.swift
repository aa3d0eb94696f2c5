import Foundation
import Testing

@Suite struct ProfileValidateCommandTests {
    @Test(arguments: ["Profiles/drone.json", "Profiles/camera.json", "Profiles/speaker.json"])
    func shippedProfilesAreValid(path: String) async throws {
        let outcome = try await CommandRunner.run("accessory-emu", ["profile", "validate", path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("\(path): valid profile"))
    }

    @Test func theDroneProfileSaysWhoItIs() async throws {
        let outcome = try await CommandRunner.run("accessory-emu", ["profile", "validate", "Profiles/drone.json"])
        #expect(outcome.standardOutput.contains("Example Inc"))
        #expect(outcome.standardOutput.contains("Example Model"))
        #expect(outcome.standardOutput.contains("My Drone"))
        #expect(outcome.standardOutput.contains("_drone-service._udp"))
    }

    @Test func aBadServiceNameNamesThePathAndTheRule() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("awarebench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let drone = try String(
            contentsOf: CommandRunner.repository.appendingPathComponent("Profiles/drone.json"),
            encoding: .utf8
        )
        let bad = drone.replacingOccurrences(of: "\"_drone-service._udp\"", with: "\"_drone_service._udp\"")
        #expect(bad != drone)
        let path = directory.appendingPathComponent("bad.json").path
        try bad.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await CommandRunner.run("accessory-emu", ["profile", "validate", path])
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError.contains(
                "services[0].name: \"_drone_service._udp\" — only letters, digits and hyphens are allowed"
            )
        )
    }

    @Test func aMissingFileExitsTwo() async throws {
        let outcome = try await CommandRunner.run(
            "accessory-emu",
            ["profile", "validate", "/nonexistent/profile.json"]
        )
        #expect(outcome.status == 2)
        #expect(!outcome.standardError.isEmpty)
    }

    @Test func noArgumentIsAUsageError() async throws {
        let outcome = try await CommandRunner.run("accessory-emu", ["profile", "validate"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Missing expected argument"))
    }
}
