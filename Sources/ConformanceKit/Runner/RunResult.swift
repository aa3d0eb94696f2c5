import AwareCore
import AwareWire
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

/// What a run was: the reports' header.
public struct RunMetadata: Hashable, Sendable {
    public var runID: String
    public var toolVersion: String
    public var baseSeed: UInt64
    public var target: String
    public var profilePath: String
    public var shard: Shard?
    public var jobs: Int
    public var iterations: Int
    public var only: [String]
    public var skip: [String]
    /// Where evidence goes.
    public var evidenceDirectory: String
    /// Whether every test keeps evidence (`--evidence`) or only failing ones.
    public var evidenceForEveryTest: Bool
    public var startedAt: Date
    /// The phone profile the run's phone behaved as (`--phone`, docs/phones.md).
    public var phone: String
}

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

/// A test's result over all its iterations.
public struct TestResult: Hashable, Sendable {
    public var id: TestID
    public var title: String
    public var tags: [TestTag]
    /// The worst verdict of the iterations (pass < skip < fail < timeout < error); skip when not applicable.
    public var verdict: TestVerdict
    /// Why it was skipped, or what failed first; nil on pass.
    public var message: String?
    public var errorOrigin: ErrorOrigin?
    /// The seed of iteration 1.
    public var seed: UInt64
    /// Empty when the test was skipped as not applicable.
    public var iterations: [IterationResult]
    /// Iterations the runner planned; fewer ran when one timed out or hit an environment error.
    public var plannedIterations: Int
    /// The command that reruns the first failing iteration alone; nil unless the test failed.
    public var rerunCommand: String?
    /// The directory holding the test's evidence, when any was kept.
    public var evidenceDirectory: String?

    public var group: String { id.group }
    public var wallSeconds: Double { iterations.reduce(0) { $0 + $1.wallSeconds } }
    public var virtualSeconds: Double? {
        let values = iterations.compactMap(\.virtualSeconds)
        return values.isEmpty ? nil : values.reduce(0, +)
    }
}

/// One run of a test body.
public struct IterationResult: Hashable, Sendable {
    /// 1-based.
    public var iteration: Int
    public var seed: UInt64
    /// The base seed that reruns this iteration alone (docs/reference/reports.md, "Seeds").
    public var baseSeed: UInt64
    public var verdict: TestVerdict
    /// The first failure, the error, the timeout or the skip reason; nil on pass.
    public var message: String?
    public var errorOrigin: ErrorOrigin?
    public var failures: [RecordedFailure]
    public var wallSeconds: Double
    /// Virtual time the test spent; nil under the wall clock.
    public var virtualSeconds: Double?
    /// Nil when evidence was not kept for this iteration.
    public var evidence: EvidenceFiles?
    /// Latency histograms a performance test recorded; empty for other tests.
    public var latency: [LatencyHistogram]

    public init(
        iteration: Int,
        seed: UInt64,
        baseSeed: UInt64,
        verdict: TestVerdict,
        message: String? = nil,
        errorOrigin: ErrorOrigin? = nil,
        failures: [RecordedFailure] = [],
        wallSeconds: Double,
        virtualSeconds: Double?,
        evidence: EvidenceFiles? = nil,
        latency: [LatencyHistogram] = []
    ) {
        self.iteration = iteration
        self.seed = seed
        self.baseSeed = baseSeed
        self.verdict = verdict
        self.message = message
        self.errorOrigin = errorOrigin
        self.failures = failures
        self.wallSeconds = wallSeconds
        self.virtualSeconds = virtualSeconds
        self.evidence = evidence
        self.latency = latency
    }
}

/// The outcome of a test (docs/reference/reports.md, "Verdicts").
public enum TestVerdict: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Every expectation held in every iteration.
    case pass
    /// An expectation failed: the accessory did not behave as required.
    case fail
    /// The test did not run: the profile or target lacks what it needs (the reason says what).
    case skip
    /// The test could not judge: it threw, or the environment broke (`ErrorOrigin` says which).
    case error
    /// The test ran past its wall-clock guard or its virtual budget.
    case timeout

    /// Pass, skip or not.
    public var isFailing: Bool { self == .fail || self == .error || self == .timeout }

    /// How a test's iterations combine: the worst one wins, in the order pass < skip < fail < timeout < error.
    var severity: Int {
        switch self {
        case .pass: 0
        case .skip: 1
        case .fail: 2
        case .timeout: 3
        case .error: 4
        }
    }

    public static func < (lhs: TestVerdict, rhs: TestVerdict) -> Bool { lhs.severity < rhs.severity }

    /// The fixed-width tag of the console's progress lines.
    public var label: String { rawValue.uppercased() }
}

/// Who broke when a test's verdict is `error`: the test itself (a bug: exit 1) or the bench around it
/// (an `EnvironmentError`: exit 3).
public enum ErrorOrigin: String, Hashable, Sendable {
    case test
    case environment
}

/// A failed expectation: what went wrong, where in the test, and when on the test's clock.
public struct RecordedFailure: Hashable, Sendable {
    public var message: String
    /// `DiscoveryTests.swift:42` (module-relative, so the same on every machine).
    public var location: String
    public var time: Instant

    public init(message: String, location: String, time: Instant) {
        self.message = message
        self.location = location
        self.time = time
    }
}
