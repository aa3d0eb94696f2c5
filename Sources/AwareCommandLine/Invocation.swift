import ArgumentParser
import Foundation
import Logging

/// How this program was started, so that the commands it prints (a failing test's `rerun:` line,
/// a hint in a banner) can be pasted as they are: `.build/debug/aware-conform`, not a bare
/// `aware-conform` that only works once the programs are on PATH (README, "Installing").
public enum Invocation {
    /// The version both programs report (`--version`) and the reports record (`tool.version`).
    public static let version = "0.4.0"

    /// The program as it was invoked when that was a path (`.build/debug/aware-conform`,
    /// `/usr/local/bin/aware-conform`), else `name` (found on PATH, so pasting it finds it again).
    public static func program(default name: String) -> String {
        program(argumentZero: CommandLine.arguments.first, default: name)
    }

    static func program(argumentZero: String?, default name: String) -> String {
        guard let argumentZero, argumentZero.contains("/") else { return name }
        return argumentZero
    }
}

// MARK: - Exit codes

extension ParsableCommand {
    /// Runs the command like `main()`, but a usage error exits 2, the project's code for
    /// "usage or profile error" (docs/reference/architecture.md, CLI conventions), instead of
    /// ArgumentParser's 64 (EX_USAGE).
    ///
    /// Help (`--help`, `-h`, `help SUBCOMMAND`) starts with USAGE: ``HelpLayout`` moves the
    /// overview after it, so the line a reader came for is the first one.
    public static func mainWithProjectExitCodes() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            if code == .success, let help = HelpLayout.usageFirst(fullMessage(for: error)) {
                FileHandle.standardOutput.write(Data((help + "\n").utf8))
                Foundation.exit(0)
            }
            exit(withError: error)
        }
    }
}

// MARK: - HelpLayout

/// ArgumentParser prints OVERVIEW (the abstract and the discussion) before USAGE; a reader who
/// asked for help wants the usage line first, as man pages put SYNOPSIS before DESCRIPTION.
public enum HelpLayout {
    /// `help` with its USAGE block first, then the overview, then the arguments, options and
    /// subcommands; nil when `help` is not a help text (the version, say).
    public static func usageFirst(_ help: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let usage = lines.firstIndex(where: { $0.hasPrefix("USAGE:") }) else { return nil }
        guard usage > 0 else { return help }
        // The USAGE block runs to the first blank line (a long usage wraps onto several lines).
        let usageEnd = lines[usage...].firstIndex(where: { $0.isEmpty }) ?? lines.count
        let overview = Array(lines[..<usage]).reversed().drop { $0.isEmpty }.reversed()
        let rest = Array(lines[usageEnd...]).drop { $0.isEmpty }
        var out = Array(lines[usage..<usageEnd])
        out.append("")
        out += overview
        if !rest.isEmpty {
            out.append("")
            out += rest
        }
        return out.joined(separator: "\n")
    }
}

// MARK: - LoggingOptions

/// `--log-level`, shared by every command: diagnostics go to standard error through
/// swift-log, so standard output stays clean for results and JSON.
public struct LoggingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "How much to log to standard error: trace, debug, info, notice, warning, error or critical.",
            valueName: "level"
        )
    )
    public var logLevel: Logger.Level = .warning

    public init() {}

    /// Sends logs to standard error at the chosen level. Call once, first thing in `run()`.
    public func bootstrap() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
