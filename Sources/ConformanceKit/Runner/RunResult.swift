import Foundation

/// A finished run: metadata, every result in catalogue order, and problems of the bench itself.
public struct RunResult: Sendable {
    public var metadata: RunMetadata
    public var finishedAt: Date
    public var tests: [TestResult]
    /// Evidence that could not be written, and the like: each makes the run an environment error.
    public var problems: [String]

    public var wallSeconds: Double { finishedAt.timeIntervalSince(metadata.startedAt) }

    public func count(_ verdict: TestVerdict) -> Int { tests.count { $0.verdict == verdict } }

    /// Groups in catalogue order.
    public var groups: [String] {
        var seen: [String] = []
        for test in tests where seen.last != test.group { seen.append(test.group) }
        return seen
    }

    public var exitCode: RunExitCode {
        if !problems.isEmpty || tests.contains(where: { $0.errorOrigin == .environment }) {
            return .environmentError
        }
        return tests.contains { $0.verdict.isFailing } ? .testsFailed : .passed
    }
}
