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
    public static func mainWithProjectExitCodes() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
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
