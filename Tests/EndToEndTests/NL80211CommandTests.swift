import Foundation
import Testing

/// `--air nl80211:IFACE` and `--target nl80211:IFACE` from the command line. Where the kernel
/// has no nl80211 (this project's CI VM: no cfg80211, platform-notes.md 1.5) both programs must
/// exit 3 with the reason and how to check; where it has nl80211 but no such interface, exit 3
/// naming the interface. The test finds out which machine it is on from /sys, not from the
/// programs under test.
@Suite struct NL80211CommandTests {
    /// cfg80211 registers /sys/class/ieee80211 when it is present.
    static let hasCfg80211 = FileManager.default.fileExists(atPath: "/sys/class/ieee80211")
    /// An interface name no machine has: the outcome is an environment error either way.
    static let absentInterface = "awbnone0"

    static func expectEnvironmentError(_ run: CommandRunner.Outcome, interface: String) {
        #expect(run.status == 3, "\(run.standardError)")
        if hasCfg80211 {
            #expect(run.standardError.contains("there is no network interface \"\(interface)\""))
            #expect(run.standardError.contains("iw dev"))
        } else {
            #expect(run.standardError.contains("nl80211 is unavailable"))
            #expect(run.standardError.contains("the generic netlink controller has no family \"nl80211\""))
            #expect(run.standardError.contains("answered errno 2, No such file or directory"))
            #expect(run.standardError.contains("ls /sys/class/ieee80211"))
            #expect(run.standardError.contains("iw dev"))
            #expect(run.standardError.contains("modprobe cfg80211"))
        }
        #expect(!run.standardError.contains("Fatal error"))
    }

    @Test func theEmulatorExitsThreeWithoutARadio() async throws {
        let interface = Self.hasCfg80211 ? Self.absentInterface : "wlan0"
        let run = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "nl80211:\(interface)"]
        )
        Self.expectEnvironmentError(run, interface: interface)
        #expect(run.standardError.hasPrefix("accessory-emu: cannot use the radio: "))
        // It stops before printing the banner: nothing on the air, nothing on standard output.
        #expect(run.standardOutput.isEmpty)
    }

    @Test func theRunnerExitsThreeWithoutARadio() async throws {
        let interface = Self.hasCfg80211 ? Self.absentInterface : "wlan0"
        for command in [["run"], ["discover"], ["pair", "--pin", "123456"]] {
            let run = try await CommandRunner.run(
                "aware-conform",
                command + ["--target", "nl80211:\(interface)", "--profile", "Profiles/drone.json"]
            )
            Self.expectEnvironmentError(run, interface: interface)
            #expect(run.standardError.hasPrefix("aware-conform: --target nl80211:\(interface): "), "\(command)")
        }
    }

    @Test func aMalformedAirOrTargetIsAUsageError() async throws {
        let emulator = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--air", "nl80211:"]
        )
        #expect(emulator.status == 64 || emulator.status == 2)
        #expect(
            emulator.standardError.contains(
                "--air must be sim, socket, socket:PATH, socket:PATH?lockstep or nl80211:IFACE"
            )
        )
        let runner = try await CommandRunner.run(
            "aware-conform",
            ["run", "--target", "nl80211:name-longer-than-15", "--profile", "Profiles/drone.json"]
        )
        #expect(runner.status == 64 || runner.status == 2)
        #expect(runner.standardError.contains("nl80211:IFACE"))
    }

    @Test func helpDocumentsTheAir() async throws {
        let emulator = try await CommandRunner.run("accessory-emu", ["run", "--help"])
        #expect(emulator.status == 0)
        #expect(emulator.standardOutput.contains("nl80211:IFACE"))
        #expect(emulator.standardOutput.contains("docs/guides/nl80211.md"))
        let runner = try await CommandRunner.run("aware-conform", ["run", "--help"])
        #expect(runner.status == 0)
        #expect(runner.standardOutput.contains("nl80211:IFACE"))
    }
}
