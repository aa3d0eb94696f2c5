import ArgumentParser
import Logging

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
