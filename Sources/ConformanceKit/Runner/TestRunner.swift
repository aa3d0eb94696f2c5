import AwareCore
import AwareWire
import Foundation
import Logging

/// Runs a catalogue's selected tests: seeds, parallel jobs, shards, iterations, the wall-clock guard,
/// verdicts and evidence. Reporters render the `RunResult` it returns.
///
///     let runner = try TestRunner(catalogue: catalogue, configuration: configuration)
///     let result = runner.run(observer: ConsoleReporter(...))
///     exit(result.exitCode.rawValue)
public struct TestRunner: Sendable {
    public let catalogue: TestCatalogue
    public let configuration: RunConfiguration
    /// This shard's tests, in catalogue order.
    public let tests: [ConformanceTest]

    /// Checks everything that would make the run meaningless before any test runs: a missing or
    /// empty profile, `--only` patterns that match nothing, a selection left empty, bad numbers.
    public init(catalogue: TestCatalogue, configuration: RunConfiguration) throws(RunSetupError) {
        guard let profile = configuration.capabilities.profile else { throw .missingProfile }
        guard !profile.services.isEmpty else { throw .emptyProfile(path: profile.path) }
        guard configuration.jobs >= 1 else { throw .invalidJobs(configuration.jobs) }
        guard configuration.iterations >= 1 else { throw .invalidIterations(configuration.iterations) }
        let unmatched = configuration.selection.unmatchedOnlyPatterns(in: catalogue.ids)
        guard unmatched.isEmpty else { throw .unmatchedPatterns(unmatched.map(\.text)) }
        let selected = catalogue.select(configuration.selection)
        guard !selected.isEmpty else { throw .noTestsSelected }
        self.catalogue = catalogue
        self.configuration = configuration
        let shard = configuration.shard
        tests = selected.enumerated().filter { shard?.owns(position: $0.offset) ?? true }.map(\.element)
    }

    /// Runs the plan and blocks until every test has a verdict (or was abandoned at its guard).
    public func run(observer: (any RunObserver)? = nil) -> RunResult {
        let startedAt = Date()
        let metadata = makeMetadata(startedAt: startedAt)
        let capabilities = configuration.capabilities
        let plan = RunPlan(
            metadata: metadata,
            entries: tests.map { CatalogueEntry(test: $0, applicability: $0.applicability(on: capabilities)) }
        )
        observer?.runStarted(plan)

        let collector = ResultCollector(count: tests.count, observer: observer)
        let queue = WorkQueue(order: Self.executionOrder(tests))
        let workers = DispatchGroup()
        for _ in 0..<min(configuration.jobs, tests.count) {
            workers.enter()
            let thread = Thread { [self] in
                while let index = queue.take() {
                    let (result, problems) = runTest(tests[index], evidenceDirectory: metadata.evidenceDirectory)
                    collector.deliver(result, at: index, problems: problems)
                }
                workers.leave()
            }
            thread.name = "aware-conform worker"
            thread.start()
        }
        workers.wait()

        let (results, problems) = collector.collected
        let result = RunResult(metadata: metadata, finishedAt: Date(), tests: results, problems: problems)
        observer?.runFinished(result)
        return result
    }

    /// Runs the plan on threads of its own and resumes when done, so an async caller does not block a
    /// thread of Swift's cooperative pool (which async test bodies need) for the length of the run.
    public func run(observer: (any RunObserver)? = nil) async -> RunResult {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in continuation.resume(returning: run(observer: observer) as RunResult) }
            thread.name = "aware-conform run"
            thread.start()
        }
    }

    /// The order tests start in (indices into `tests`); reports keep catalogue order. Tests that
    /// leave wrong PINs counted (``TestTag/leavesWrongPIN``) go last: on an accessory the tests
    /// share (a device on the socket air or a radio, one accessory-emu), wrong PINs count against
    /// its limit until a correct one, and the counts survive restarts, so run earlier they could lock
    /// out the tests after them (docs/guides/running-the-accessory.md, "Wrong PINs and lockout").
    static func executionOrder(_ tests: [ConformanceTest]) -> [Int] {
        let last = tests.indices.filter { tests[$0].tags.contains(.leavesWrongPIN) }
        return tests.indices.filter { !tests[$0].tags.contains(.leavesWrongPIN) } + last
    }

    private func makeMetadata(startedAt: Date) -> RunMetadata {
        let runID = configuration.runID ?? Self.defaultRunID(startedAt: startedAt, seed: configuration.baseSeed)
        let everyTest: Bool
        if case .everyTest = configuration.evidence { everyTest = true } else { everyTest = false }
        return RunMetadata(
            runID: runID,
            toolVersion: configuration.toolVersion,
            baseSeed: configuration.baseSeed,
            target: configuration.capabilities.target,
            profilePath: configuration.capabilities.profile?.path ?? "",
            shard: configuration.shard,
            jobs: configuration.jobs,
            iterations: configuration.iterations,
            only: configuration.selection.only.map(\.text),
            skip: configuration.selection.skip.map(\.text),
            evidenceDirectory: configuration.evidence.directory(runID: runID),
            evidenceForEveryTest: everyTest,
            startedAt: startedAt,
            phone: configuration.phone.name.rawValue
        )
    }

    /// `20260512-141503-123-seed-42`: sortable, unique per run, safe in a path.
    static func defaultRunID(startedAt: Date, seed: UInt64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        return "\(formatter.string(from: startedAt))-seed-\(seed)"
    }

    // MARK: One test

    /// Each test's start and verdict as it happens (`--log-level debug`), for a run that hangs or
    /// a CI log read without the report.
    static let logger = Logger(label: "awarebench.runner")

    private func runTest(_ test: ConformanceTest, evidenceDirectory: String) -> (TestResult, [String]) {
        let baseSeed = configuration.baseSeed
        var result = TestResult(
            id: test.id,
            title: test.title,
            tags: test.tags,
            verdict: .skip,
            seed: TestSeed.derive(base: baseSeed, id: test.id),
            iterations: [],
            plannedIterations: configuration.iterations
        )
        if case .notApplicable(let reason) = test.applicability(on: configuration.capabilities) {
            result.message = reason
            Self.logger.debug("skipped", metadata: ["test": "\(test.id)", "reason": "\(reason)"])
            return (result, [])
        }
        Self.logger.debug("started", metadata: ["test": "\(test.id)", "seed": "\(result.seed)"])
        var problems: [String] = []
        for iteration in 1...configuration.iterations {
            let iterationBase = TestSeed.base(baseSeed, iteration: iteration)
            var (outcome, snapshot) = runIteration(test, iteration: iteration, baseSeed: iterationBase)
            if configuration.evidence.keeps(outcome.verdict) {
                let directory = EvidenceLayout.iterationDirectory(
                    evidenceDirectory,
                    test.id,
                    iteration: iteration,
                    of: configuration.iterations
                )
                do {
                    outcome.evidence = try EvidenceWriter().write(snapshot, to: directory)
                } catch {
                    problems.append("could not write the evidence of \(test.id) to \(directory): \(error)")
                }
            }
            result.iterations.append(outcome)
            // The body of a timed-out test may still hold the target; a broken environment stays broken.
            if outcome.verdict == .timeout || outcome.errorOrigin == .environment { break }
        }
        let worst = result.iterations.max { $0.verdict < $1.verdict }
        result.verdict = worst?.verdict ?? .skip
        result.message = worst?.message
        result.errorOrigin = worst?.errorOrigin
        if let firstFailing = result.iterations.first(where: { $0.verdict.isFailing }) {
            result.rerunCommand = configuration.rerun.render(baseSeed: firstFailing.baseSeed, id: test.id)
        }
        if result.iterations.contains(where: { $0.evidence != nil }) {
            result.evidenceDirectory = EvidenceLayout.testDirectory(evidenceDirectory, test.id)
        }
        Self.logger.debug(
            "finished",
            metadata: [
                "test": "\(test.id)", "verdict": "\(result.verdict.rawValue)",
                "iterations": "\(result.iterations.count)",
            ]
        )
        return (result, problems)
    }

    private func runIteration(
        _ test: ConformanceTest,
        iteration: Int,
        baseSeed: UInt64
    ) -> (IterationResult, EvidenceSnapshot) {
        let seed = TestSeed.derive(base: baseSeed, id: test.id)
        let context = TestContext(
            id: test.id,
            title: test.title,
            seed: seed,
            iteration: iteration,
            budget: test.budget,
            capabilities: configuration.capabilities,
            clock: configuration.clock,
            faultSteps: configuration.faultPlan?.steps(for: test.id) ?? [],
            proposalShape: configuration.proposalShape,
            phone: configuration.phone
        )
        let limit = test.wallLimit ?? configuration.defaultWallLimit
        context.logFromRunner(
            "test-started",
            [
                "id": .string(test.id.description), "title": .string(test.title), "seed": .string(String(seed)),
                "iteration": .integer(Int64(iteration)), "budget": .double(test.budget.seconds),
            ]
        )
        let started = ContinuousClock.now
        let execution = BodyExecution.start(test.body, context: context)
        let outcome = execution.wait(limit: limit, excluding: { context.operatorTime })
        let wall = ContinuousClock.now - started

        var judgement = Judgement(outcome: outcome, failures: context.recordedFailures, limit: limit)
        let finalTime = context.now
        if configuration.clock == .virtual, judgement.verdict != .timeout,
            finalTime > context.deadline + context.personTime
        {
            judgement = Judgement(
                verdict: .timeout,
                message: "ran past its virtual budget of \(Self.seconds(test.budget.seconds)) "
                    + "(reached \(Self.seconds(finalTime.seconds)))"
            )
        }
        var closing: [String: JSONValue] = ["verdict": .string(judgement.verdict.rawValue)]
        if let message = judgement.message { closing["message"] = .string(message) }
        if let origin = judgement.origin { closing["errorOrigin"] = .string(origin.rawValue) }
        let snapshot = context.seal(cancel: outcome == nil, closing: "test-finished", closing)
        if outcome == nil { execution.abandon() }
        let result = IterationResult(
            iteration: iteration,
            seed: seed,
            baseSeed: baseSeed,
            verdict: judgement.verdict,
            message: judgement.message,
            errorOrigin: judgement.origin,
            failures: context.recordedFailures,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            virtualSeconds: configuration.clock == .virtual ? snapshot.finalTime.seconds : nil,
            latency: context.recordedLatency
        )
        return (result, snapshot)
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%g s", value)
    }

    static func seconds(_ duration: Duration) -> String {
        seconds(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}

/// How a body's outcome becomes a verdict (docs/reference/reports.md, "Verdicts").
private struct Judgement {
    var verdict: TestVerdict
    var message: String?
    var origin: ErrorOrigin?

    init(verdict: TestVerdict, message: String?, origin: ErrorOrigin? = nil) {
        self.verdict = verdict
        self.message = message
        self.origin = origin
    }

    init(outcome: BodyExecution.Outcome?, failures: [RecordedFailure], limit: Duration) {
        let failed = failures.first.map { Judgement(verdict: .fail, message: $0.message) }
        switch outcome {
        case nil:
            self.init(
                verdict: .timeout,
                message:
                    "no verdict within the wall-clock guard of \(TestRunner.seconds(limit)); the test was abandoned"
            )
        case .returned:
            self = failed ?? Judgement(verdict: .pass, message: nil)
        case .threw(TestInterruption.requirementFailed):
            self = failed ?? Judgement(verdict: .fail, message: "a requirement failed")
        case .threw(TestInterruption.skipped(let reason)):
            self = failed ?? Judgement(verdict: .skip, message: reason)
        case .threw(let error as any EnvironmentError):
            self.init(verdict: .error, message: "environment: \(error)", origin: .environment)
        case .threw(let error):
            self.init(verdict: .error, message: "the test threw \(type(of: error)): \(error)", origin: .test)
        }
    }
}

/// The tests a run will take (this shard's share of the selection, in catalogue order) and whether
/// each applies.
public struct RunPlan: Sendable {
    public var metadata: RunMetadata
    public var entries: [CatalogueEntry]

    public var tests: [ConformanceTest] { entries.map(\.test) }
}

/// Follows a run as it goes (the console reporter is one). The runner calls these one at a time, and
/// `testFinished` in catalogue order whatever order parallel jobs finish in, so output is the same
/// for `--jobs 1` and `--jobs 8`.
public protocol RunObserver: Sendable {
    func runStarted(_ plan: RunPlan)
    /// `position` counts from 1 up to `total`, the number of tests in the plan.
    func testFinished(_ result: TestResult, position: Int, total: Int)
    func runFinished(_ result: RunResult)
}

/// Gathers results from the workers and hands them to the observer in catalogue order: a result is
/// passed on as soon as every test before it has finished.
final class ResultCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let observer: (any RunObserver)?
    private var results: [TestResult?]
    private var nextToReport = 0
    private var problems: [String] = []

    init(count: Int, observer: (any RunObserver)?) {
        results = Array(repeating: nil, count: count)
        self.observer = observer
    }

    func deliver(_ result: TestResult, at index: Int, problems newProblems: [String]) {
        lock.withLock {
            results[index] = result
            problems += newProblems
            while nextToReport < results.count, let ready = results[nextToReport] {
                nextToReport += 1
                observer?.testFinished(ready, position: nextToReport, total: results.count)
            }
        }
    }

    var collected: (results: [TestResult], problems: [String]) {
        lock.withLock { (results.compactMap { $0 }, problems) }
    }
}

/// Hands out test indices to the worker threads, each exactly once.
final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let order: [Int]
    private var next = 0

    /// Hands out `order`'s indices, each once, in that order.
    init(order: [Int]) {
        self.order = order
    }

    func take() -> Int? {
        lock.withLock {
            guard next < order.count else { return nil }
            defer { next += 1 }
            return order[next]
        }
    }
}
