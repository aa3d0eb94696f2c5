import Foundation
import Testing

/// The runner against an accessory it did not build: the PIN from `--pin` or an operator's
/// command, the power switch and factory reset from commands (docs/guides/foreign-accessories.md).
@Suite struct ForeignAccessoryRunTests {
    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-foreign-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func report(_ path: String) throws -> [String: [String: Any]] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        let tests = try #require(object["tests"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: tests.compactMap { test in (test["id"] as? String).map { ($0, test) } })
    }

    /// `ci/foreign-accessory/accessory ARGUMENTS` with its directory and this build's programs.
    static func accessory(_ directory: URL, _ arguments: String) -> String {
        "FOREIGN_DIR='\(directory.path)' AWAREBENCH_BIN='\(CommandRunner.productsDirectory.path)' "
            + "ci/foreign-accessory/accessory \(arguments)"
    }

    /// Runs `line` with /bin/sh in the checkout and returns its exit status, on a thread of its
    /// own (the test pool's threads must not block).
    static func shell(_ line: String) async -> Int32 {
        let command = "cd '\(CommandRunner.repository.path)' && \(line)"
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let status = system(command)
                continuation.resume(returning: status & 0x7F == 0 ? (status >> 8) & 0xFF : -1)
            }
        }
    }

    @Test(arguments: [
        (["--pin", "12ab56"], #"--pin "12ab56" is not a PIN: a PIN is 4 to 8 digits 0-9"#),
        (["--pin", "1234567"], #"--pin "1234567" has 7 digits, but the profile's PIN has 6 (pairing.pin.length)"#),
        (["--pin", "123456", "--pin-command", "true"], "give --pin or --pin-command, not both"),
        (
            ["--reboot-command", "true"],
            "--reboot-command, --reset-command and --enter-pin-command apply to --target socket[:PATH]"
        ),
        (
            ["--enter-pin-command", "true"],
            "--reboot-command, --reset-command and --enter-pin-command apply to --target socket[:PATH]"
        ),
        (["--target", "socket", "--enter-pin-command", " "], "--enter-pin-command is empty"),
    ])
    func aBadOperatorOptionIsAUsageErrorBeforeAnyTest(options: [String], message: String) async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json"] + options
        )
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("PASS"))
    }

    /// `--pin` is typed whatever the display shows: the camera's label PIN pairs, and a PIN the
    /// drone did not show fails as a wrong PIN would.
    @Test func aGivenPINIsTheOneTyped() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let label = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/camera.json", "--only", "WA/PAIR/BV-01", "--pin", "20254718", "--json",
                directory.appendingPathComponent("camera.json").path,
            ]
        )
        #expect(label.status == 0, "\(label.standardOutput.suffix(1500))")
        let wrong = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/PAIR/BV-01", "--pin", "000000", "--json",
                directory.appendingPathComponent("drone.json").path,
            ]
        )
        #expect(wrong.status == 1)
        let verdict = try Self.report(directory.appendingPathComponent("drone.json").path)["WA/PAIR/BV-01"]
        #expect(verdict?["verdict"] as? String == "fail")
    }

    /// A PIN command that prints no PIN ends the test as an error that quotes it, and no frame 1
    /// went out: the accessory saw no pairing start, so nothing counted against its limit.
    @Test func aPINCommandWithoutAPINIsAnErrorBeforeFrame1() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/PAIR/BV-01", "--pin-command",
                "echo 'PIN: 12'", "--evidence", directory.path, "--json",
                directory.appendingPathComponent("r.json").path,
            ]
        )
        #expect(outcome.status == 3, "\(outcome.standardOutput.suffix(1500))")
        let test = try #require(try Self.report(directory.appendingPathComponent("r.json").path)["WA/PAIR/BV-01"])
        #expect(test["verdict"] as? String == "error")
        let message = test["message"] as? String ?? ""
        #expect(
            message.contains(#"--pin-command "echo 'PIN: 12'" printed "PIN: 12", which is not a PIN"#),
            "\(message)"
        )
        let events = try String(
            contentsOf: directory.appendingPathComponent("WA_PAIR_BV-01/accessory-events.jsonl"),
            encoding: .utf8
        )
        #expect(events.contains(#""event":"bootstrap_accepted""#))
        #expect(!events.contains(#""event":"pairing_started""#))
    }

    /// `pair --pin-command` against a device that shows its PIN only on its own display: the command
    /// reads it once the accessory accepted PIN bootstrapping and the pairing completes; a command
    /// that prints no PIN is exit 3, quoted, and spends no attempt (the next pairing still pairs).
    @Test func pairReadsThePINWithACommand() async throws {
        let directory = try Self.scratch()
        defer {
            _ = system("cd '\(CommandRunner.repository.path)' && \(Self.accessory(directory, "stop"))")
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(await Self.shell(Self.accessory(directory, "start Profiles/drone.json")) == 0)
        let common = [
            "pair", "--target", "socket:\(directory.path)/air", "--profile", "Profiles/drone.json", "--json",
            "--timeout", "20",
        ]
        let bad = try await CommandRunner.run("aware-conform", common + ["--pin-command", "echo 'PIN: 12'"])
        #expect(bad.status == 3, "\(bad.standardOutput) \(bad.standardError)")
        #expect(
            bad.standardError.contains(#"--pin-command "echo 'PIN: 12'" printed "PIN: 12", which is not a PIN"#),
            "\(bad.standardError)"
        )
        let good = try await CommandRunner.run(
            "aware-conform",
            common + ["--pin-command", Self.accessory(directory, "pin")]
        )
        #expect(good.status == 0, "\(good.standardOutput) \(good.standardError)")
        #expect(good.standardOutput.contains(#""result":"paired""#), "\(good.standardOutput)")
        // Two PINs shown (one per bootstrapping), one pairing started: the bad command typed nothing.
        let display = try String(contentsOf: directory.appendingPathComponent("display.jsonl"), encoding: .utf8)
        #expect(display.components(separatedBy: #""event":"pin_displayed""#).count - 1 == 2)
        #expect(display.components(separatedBy: #""event":"pairing_started""#).count - 1 == 1)
        #expect(!display.contains(#""event":"pairing_failed""#))
    }

    /// `accessory-emu` with no control socket and its display off the air, as a device: the PIN
    /// comes from its log through `--pin-command`, reboots and the reset through commands, the
    /// publishing phone's PIN goes in through `--enter-pin-command`, and the restart, reset and
    /// reverse-role tests run and pass. Without that command (and no terminal) the reverse role
    /// skips, naming it.
    @Test func theRestartAndResetTestsRunThroughOperatorCommands() async throws {
        let directory = try Self.scratch()
        defer {
            // Whatever happened, the accessory does not outlive the test (a brief block is fine here).
            _ = system("cd '\(CommandRunner.repository.path)' && \(Self.accessory(directory, "stop"))")
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(await Self.shell(Self.accessory(directory, "start Profiles/drone.json")) == 0)
        let reportPath = directory.appendingPathComponent("r.json").path
        // With the reverse role's pairing and restart, the phone's PIN typed by --enter-pin-command.
        let tests = [
            "WA/PAIR/BV-01", "WA/PAIR/BV-03", "WA/RECON/BV-03", "WA/RECON/BV-05", "WA/RECON/BI-06", "WA/PAIR/BV-27",
            "WA/RECON/BV-12",
        ]
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--target", "socket:\(directory.path)/air", "--profile", "Profiles/drone.json", "--no-prompt"]
                + tests.flatMap { ["--only", $0] }
                + [
                    "--pin-command", Self.accessory(directory, "pin"), "--reboot-command",
                    Self.accessory(directory, "reboot"), "--reset-command", Self.accessory(directory, "reset"),
                    "--enter-pin-command", Self.accessory(directory, "enter-pin"), "--json", reportPath,
                ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(2000))")
        let verdicts = try Self.report(reportPath).mapValues { $0["verdict"] as? String ?? "" }
        #expect(verdicts == Dictionary(uniqueKeysWithValues: tests.map { ($0, "pass") }))
        // The display stayed off the air: every PIN came through the command.
        let display = try String(contentsOf: directory.appendingPathComponent("display.jsonl"), encoding: .utf8)
        #expect(display.components(separatedBy: #""event":"pin_displayed""#).count - 1 >= 4)
        // The accessory asked for the phone's PIN and its role's pairing completed.
        #expect(display.contains(#""event":"pin_requested""#))
        #expect(display.contains(#""role":"initiator""#))

        let skipped = directory.appendingPathComponent("s.json").path
        let without = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--target", "socket:\(directory.path)/air", "--profile", "Profiles/drone.json", "--no-prompt",
                "--only", "WA/PAIR/BV-27", "--json", skipped,
            ]
        )
        #expect(without.status == 0, "\(without.standardOutput.suffix(1000))")
        let reason = try Self.report(skipped)["WA/PAIR/BV-27"]?["reason"] as? String ?? ""
        #expect(reason.contains("--enter-pin-command"), "\(reason)")
    }

    /// At a terminal, without --reboot-command, the runner asks the person to power-cycle the
    /// accessory and goes on when Enter is pressed (here a pseudo-terminal from `script`, with the
    /// Enter typed in advance and the accessory left running, so it is "back" at once).
    @Test func atATerminalTheRunnerAsksThePersonToPowerCycle() async throws {
        let directory = try Self.scratch()
        defer {
            _ = system("cd '\(CommandRunner.repository.path)' && \(Self.accessory(directory, "stop"))")
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(await Self.shell(Self.accessory(directory, "start Profiles/drone.json")) == 0)
        let runner = CommandRunner.productsDirectory.appendingPathComponent("aware-conform").path
        let report = directory.appendingPathComponent("r.json").path
        let session = directory.appendingPathComponent("session.sh")
        try """
        exec '\(runner)' run --target 'socket:\(directory.path)/air' --profile Profiles/drone.json \\
            --only WA/RECON/BV-03 --pin-command "\(Self.accessory(directory, "pin"))" --json '\(report)'
        """.write(to: session, atomically: true, encoding: .utf8)
        let typescript = directory.appendingPathComponent("typescript").path
        let status = await Self.shell(
            "printf '\\n\\n' | script -qec 'sh \(session.path)' '\(typescript)' > /dev/null"
        )
        let shown = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(shown.suffix(1500))")
        #expect(shown.contains("WA/RECON/BV-03: power-cycle the accessory (it keeps its pairings), then press Enter:"))
        #expect(try Self.report(report)["WA/RECON/BV-03"]?["verdict"] as? String == "pass")
    }
}
