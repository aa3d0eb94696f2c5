import AwareCore
import Foundation

/// `aware-conform selftest`: proves the catalogue can fail. The catalogue runs once against the
/// accessory as its profile describes it (every applicable test must pass), then once per
/// accessory fault; the tests the fault's contract names (``FaultMatrix``, from the tests'
/// `brokenBy` declarations) must fail, and every other applicable test must still pass. The
/// command prints what this finds; the runs and the comparisons are here.
public struct Selftest {
    /// The run without a fault: what applies to this profile, and what failed although nothing
    /// was broken.
    public struct Baseline: Sendable {
        public var applicable: Set<String>
        public var failures: [TestResult]
    }

    /// One fault's run against its contract.
    public struct FaultOutcome: Sendable {
        public var fault: String
        /// The tests the contract says the fault breaks, among those that apply.
        public var expected: Set<String>
        public var failing: Set<String>
        /// Expected to fail, but passed: a test that cannot see what it checks.
        public var missed: [String]
        /// Failed although the contract does not name them, with their messages.
        public var unexpected: [(id: String, message: String)]

        public var isOK: Bool { missed.isEmpty && unexpected.isEmpty }
        /// A fault of a feature the profile lacks (a file service on the drone): no applicable
        /// test can catch it here, and none may fail because of it.
        public var isNotApplicable: Bool { isOK && expected.isEmpty }
    }

    /// How the contract compares with the matrix recorded for a shipped profile.
    public enum RecordedContract: Sendable {
        /// Not a shipped profile: nothing recorded to compare with.
        case none
        case equal(path: String, faults: Int)
        case differs(path: String, differences: [String])
        case unreadable(path: String, reason: String)
    }

    public let target: any AccessoryTarget
    public let profilePath: String
    public let matrix: FaultMatrix
    let seed: UInt64
    let jobs: Int
    let evidenceRoot: String
    let rerun: RerunCommand
    let toolVersion: String

    public init(
        target: any AccessoryTarget,
        profilePath: String,
        seed: UInt64,
        jobs: Int,
        evidenceRoot: String,
        rerun: RerunCommand,
        toolVersion: String
    ) {
        self.target = target
        self.profilePath = profilePath
        self.seed = seed
        self.jobs = jobs
        self.evidenceRoot = evidenceRoot
        self.rerun = rerun
        self.toolVersion = toolVersion
        matrix = FaultMatrix(profile: target.capabilities.profile)
    }

    /// The contract against the matrix recorded beside a shipped profile
    /// (`Profiles/<name>.json` has `Fixtures/selftest/<name>-matrix.json`), so that a change to
    /// the contract is a reviewed change to a fixture.
    public func recordedContract() -> RecordedContract {
        guard let path = Self.recordedMatrixPath(forProfile: profilePath) else { return .none }
        let shown = Self.displayPath(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            return .unreadable(path: shown, reason: "cannot read it")
        }
        do throws(FaultMatrixError) {
            let differences = matrix.differences(from: try FaultMatrix(parsing: Array(data)))
            return differences.isEmpty
                ? .equal(path: shown, faults: matrix.failures.count) : .differs(path: shown, differences: differences)
        } catch {
            return .unreadable(path: shown, reason: "\(error)")
        }
    }

    public func baseline() throws -> Baseline {
        let result = try run(faults: [])
        return Baseline(
            applicable: Set(result.tests.filter { $0.verdict != .skip }.map(\.id.description)),
            failures: result.tests.filter { $0.verdict.isFailing }
        )
    }

    public func check(fault: String, applicable: Set<String>) throws -> FaultOutcome {
        let expected = (matrix.failures[fault] ?? []).intersection(applicable)
        let result = try run(faults: [fault])
        let failing = Set(result.tests.filter { $0.verdict.isFailing }.map(\.id.description))
        return FaultOutcome(
            fault: fault,
            expected: expected,
            failing: failing,
            missed: expected.subtracting(failing).sorted(),
            unexpected: failing.subtracting(expected).sorted().map { id in
                (id, result.tests.first { $0.id.description == id }?.message ?? "")
            }
        )
    }

    private func run(faults: [String]) throws -> RunResult {
        let catalogue = try TestCatalogue(ConformanceSuites.tests(target: target, faults: faults))
        let configuration = RunConfiguration(
            capabilities: target.capabilities,
            baseSeed: seed,
            jobs: jobs,
            evidence: .failingTests(root: evidenceRoot),
            clock: target.clock,
            rerun: rerun,
            toolVersion: toolVersion
        )
        return try TestRunner(catalogue: catalogue, configuration: configuration).run()
    }

    /// The matrix recorded for a shipped profile, or nil for any other profile.
    static func recordedMatrixPath(forProfile path: String) -> String? {
        let profile = URL(fileURLWithPath: path).standardizedFileURL
        let directory = profile.deletingLastPathComponent()
        guard directory.lastPathComponent == "Profiles" else { return nil }
        let name = profile.deletingPathExtension().lastPathComponent
        let recorded = directory.deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent("selftest").appendingPathComponent("\(name)-matrix.json")
        return FileManager.default.fileExists(atPath: recorded.path) ? recorded.path : nil
    }

    /// `path` relative to the working directory when it lies under it.
    static func displayPath(_ path: String) -> String {
        let here = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }
}
