/// Why a run cannot start: a usage or profile error (exit 2). Raised before any test runs, so a
/// mistake never turns into a silent empty run (Matter's certification harness ran nothing when no PICS file was given: project-chip/certification-tool issue #446).
public enum RunSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingProfile
    case emptyProfile(path: String)
    case unmatchedPatterns([String])
    case noTestsSelected
    case invalidShard(String)
    case invalidJobs(Int)
    case invalidIterations(Int)

    public var description: String {
        switch self {
        case .missingProfile:
            "no profile: pass --profile FILE (the profile decides which tests apply)"
        case .emptyProfile(let path):
            "the profile \(path) publishes no service: there is nothing to test"
        case .unmatchedPatterns(let patterns):
            "--only \(patterns.joined(separator: ", ")) matches no test (see `aware-conform list`)"
        case .noTestsSelected:
            "the --only and --skip patterns leave no test to run"
        case .invalidShard(let text):
            "--shard \(text): expected I/N with 1 <= I <= N"
        case .invalidJobs(let jobs):
            "--jobs \(jobs): expected at least 1"
        case .invalidIterations(let iterations):
            "--iterations \(iterations): expected at least 1"
        }
    }

    public var exitCode: RunExitCode { .usageOrProfileError }
}
