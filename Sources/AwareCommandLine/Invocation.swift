import Foundation

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
