import Foundation
import Testing

@testable import ConformanceKit

/// The operator's commands (`--pin-command`, `--reboot-command`, `--reset-command`) run through
/// `/bin/sh`: their output, their exit, their time limit and what they leave running.
@Suite struct OperatorCommandTests {
    static func command(_ line: String, timeout: Double = 10) -> OperatorCommand {
        OperatorCommand(line, timeoutSeconds: timeout, option: "--pin-command")
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-operator-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Whether `pid` is still the `sleep SECONDS` the command started, alive and not a zombie
    /// (/proc/PID/stat's state field). The command line is checked too: on a busy machine a
    /// process ID is soon given to another process.
    static func isRunning(_ pid: Int32, sleeping seconds: Int) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
        else { return false }
        guard commandLine == Data("sleep\0\(seconds)\0".utf8) else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    @Test func theOutputIsReturnedAndTheEnvironmentReachesTheCommand() throws {
        let output = try Self.command(#"printf '%s\nsecond line\n' "$AWARE_PHONE_NMI""#)
            .run(environment: ["AWARE_PHONE_NMI": "02:b0:00:00:00:09"])
        #expect(output == "02:b0:00:00:00:09\nsecond line\n")
    }

    @Test func aNonZeroExitIsAnErrorThatQuotesStandardError() throws {
        #expect {
            try Self.command("echo 'the relay is off' >&2; exit 3").run(environment: [:])
        } throws: { error in
            guard let error = error as? OperatorCommandError else { return false }
            return error.failure == .exited(status: 3, standardError: "the relay is off")
                && error.description
                    == #"--pin-command "echo 'the relay is off' >&2; exit 3" exited with status 3: the relay is off"#
        }
    }

    @Test func aCommandPastItsTimeIsKilledWithWhatItStarted() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("child").path
        #expect {
            try Self.command("sleep 3171 & echo $! > '\(pidFile)'; wait", timeout: 0.5).run(environment: [:])
        } throws: { error in
            (error as? OperatorCommandError)?.failure == .timedOut(seconds: 0.5)
        }
        let child = try #require(
            Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        )
        // The background sleep was in the command's process group: killed, not left behind
        // (at most a zombie, where no init reaps orphans). SIGKILL is delivered when the
        // process is next scheduled, so on a loaded machine it may still show for a moment
        // after the shell has been reaped (seen in CI): allow it a few seconds to go.
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.isRunning(child, sleeping: 3171) && ContinuousClock.now < deadline {
            usleep(20_000)
        }
        #expect(!Self.isRunning(child, sleeping: 3171))
    }

    /// A reboot command starts the accessory and leaves it running, holding the command's
    /// output open: the runner waits for the shell to exit, not for the output to close.
    @Test func aProcessLeftRunningDoesNotHoldTheRunner() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("child").path
        let output = try Self.command("sleep 3172 & echo $! > '\(pidFile)'; echo started", timeout: 5)
            .run(environment: [:])
        #expect(output.hasPrefix("started"))
        let child = try #require(
            Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        )
        // The shell may exit before its background child has exec'd sleep (its command line is
        // still the shell's then; seen under CI load): give the exec a few seconds.
        let deadline = ContinuousClock.now + .seconds(10)
        while !Self.isRunning(child, sleeping: 3172) && ContinuousClock.now < deadline { usleep(20_000) }
        #expect(Self.isRunning(child, sleeping: 3172), "the process the command left behind still runs")
        kill(child, SIGKILL)
    }

    @Test func aCommandThatCannotRunExitsWith127() throws {
        #expect {
            try Self.command("/nonexistent/pin-reader").run(environment: [:])
        } throws: { error in
            guard case .exited(127, _) = (error as? OperatorCommandError)?.failure else { return false }
            return true
        }
    }

    @Test func aPINIsFourToEightDigitsOfTheProfilesLength() {
        let cases: [(String, Int?, String?)] = [
            ("123456", nil, nil),
            ("1234", 4, nil),
            ("12345678", nil, nil),
            ("12ab56", nil, "is not a PIN: a PIN is 4 to 8 digits 0-9"),
            ("", nil, "is not a PIN: a PIN is 4 to 8 digits 0-9"),
            (" 123456", nil, "is not a PIN: a PIN is 4 to 8 digits 0-9"),
            ("١٢٣٤٥٦", nil, "is not a PIN: a PIN is 4 to 8 digits 0-9"),
            ("123", nil, "has 3 digits: a PIN has 4 to 8"),
            ("123456789", nil, "has 9 digits: a PIN has 4 to 8"),
            ("1234567", 6, "has 7 digits, but the profile's PIN has 6 (pairing.pin.length)"),
        ]
        for (text, length, problem) in cases {
            #expect(PINInput.problem(with: text, length: length) == problem, "\(text)")
        }
    }

    @Test func theAbilitiesNameTheOptionThatWouldGiveThem() {
        let none = OperatorAccess()
        #expect(
            none.restartAbility(
                controlled: false,
                outside: "the accessory on socket:/a was started outside the runner",
                control: true
            )
                == .unavailable(
                    reason: "the accessory on socket:/a was started outside the runner: give --reboot-command CMD "
                        + "(or --control PATH for accessory-emu), or run at a terminal"
                )
        )
        #expect(
            none.resetAbility(controlled: false, outside: "x", control: false)
                == .unavailable(reason: "x: give --reset-command CMD, or run at a terminal")
        )
        let commands = OperatorAccess(
            reboot: Self.command("true"),
            reset: nil
        )
        #expect(commands.restartAbility(controlled: false, outside: "x", control: false) == .available)
        #expect(commands.resetAbility(controlled: false, outside: "x", control: false) != .available)
        #expect(
            OperatorAccess(prompts: true).resetAbility(controlled: false, outside: "x", control: false) == .available
        )
    }
}
