/// What `aware-conform run` exits with (docs/reference/reports.md, "Exit codes").
public enum RunExitCode: Int32, Hashable, Sendable {
    /// Every applicable test passed; skips are allowed.
    case passed = 0
    /// A test failed, timed out, or errored in its own code.
    case testsFailed = 1
    /// Bad flags or a missing, empty or invalid profile: nothing ran.
    case usageOrProfileError = 2
    /// The bench broke (a test's `EnvironmentError`, evidence that could not be written): results
    /// cannot be trusted, whatever else passed or failed.
    case environmentError = 3
}
