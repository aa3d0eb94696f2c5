import AwareCore
import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

@Suite struct RunnerTests {
    static func run(_ catalogue: TestCatalogue, _ configuration: RunConfiguration) throws -> RunResult {
        try TestRunner(catalogue: catalogue, configuration: configuration).run()
    }

    @Test func eachOutcomeGetsItsVerdictInCatalogueOrder() throws {
        let result = try Self.run(Synthetic.mixedCatalogue(), Synthetic.configuration())
        let verdicts = result.tests.map { "\($0.id) \($0.verdict.rawValue)" }
        #expect(
            verdicts == [
                "WA/DISC/MF/BV-03 fail", "WA/DISC/SD/BV-01 pass", "WA/DISC/SD/BV-02 pass", "WA/DISC/SD/BV-10 skip",
                "WA/DISC/SD/BI-01 error", "WA/PAIR/BV-01 pass",
            ]
        )
        let failed = result.tests[0]
        #expect(failed.message == "discovered services: expected 1, got 0")
        #expect(
            failed.iterations[0].failures.map(\.message) == [
                "discovered services: expected 1, got 0", "no Publish SDF within the budget",
            ]
        )
        #expect(failed.iterations[0].failures[0].location.hasPrefix("RunnerSyntheticTests.swift:"))
        #expect(failed.iterations[0].failures[0].time == Instant(nanoseconds: 2_000_000_000))
        #expect(failed.virtualSeconds == 2)
        let skipped = result.tests[3]
        #expect(skipped.message == "the profile publishes 1 service, the test needs at least 2")
        #expect(skipped.iterations.isEmpty)
        let error = result.tests[4]
        #expect(error.errorOrigin == .test)
        #expect(error.message == "the test threw BrokenTest: index out of range in the test")
        #expect(result.exitCode == .testsFailed)
    }

    /// Tests that leave wrong PINs counted start after the others, so that on an accessory the
    /// tests share they cannot lock out a later test; the report keeps catalogue order.
    @Test func testsThatLeaveWrongPINsStartLastAndReportInCatalogueOrder() throws {
        let started = Observations<String>()
        let record: @Sendable (String) -> ConformanceTest = { id in
            Synthetic.test(id, tags: id.hasSuffix("BI-04") || id.hasSuffix("BI-05") ? ["leaves-wrong-pin"] : []) { _ in
                started.append(id)
            }
        }
        let ids = ["WA/PAIR/BV-01", "WA/PAIR/BI-04", "WA/PAIR/BI-05", "WA/PAIR/BV-06", "WA/RECON/BV-01"]
        let catalogue = try TestCatalogue(ids.map(record))
        let result = try Self.run(catalogue, Synthetic.configuration(jobs: 1))
        #expect(started.all == ["WA/PAIR/BV-01", "WA/PAIR/BV-06", "WA/RECON/BV-01", "WA/PAIR/BI-04", "WA/PAIR/BI-05"])
        #expect(result.tests.map(\.id) == catalogue.tests.map(\.id))
        #expect(result.tests.map(\.id.description).last == "WA/RECON/BV-01", "catalogue order, not start order")
        // The shipped catalogue marks exactly the tests that end on a wrong PIN.
        let marked = ConformanceSuites.declarations.tests.filter { $0.tags.contains(.leavesWrongPIN) }.map(
            \.id.description
        )
        #expect(marked == ["WA/PAIR/BI-04", "WA/PAIR/BI-05"])
    }

    @Test func requireStopsTheTestAndSkipEndsItAsSkipped() throws {
        let reached = Observations<String>()
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01") { context in
                let value: Int? = nil
                _ = try context.require(value, "no discovery result")
                reached.append("after require")
            },
            Synthetic.test("WA/DISC/BV-02") { context in
                try context.skip("the target has no second radio")
            },
            Synthetic.test("WA/DISC/BV-03") { context in
                context.fail("first")
                try context.skip("too late to skip")
            },
        ])
        let result = try Self.run(catalogue, Synthetic.configuration())
        #expect(reached.all.isEmpty)
        #expect(result.tests.map(\.verdict) == [.fail, .skip, .fail])
        #expect(result.tests[0].message == "no discovery result")
        #expect(result.tests[1].message == "the target has no second radio")
        #expect(result.tests[1].iterations.count == 1)
        #expect(result.tests[2].message == "first")
    }

    @Test func anEnvironmentErrorExitsThreeEvenBesideFailures() throws {
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01", Synthetic.fails),
            Synthetic.test("WA/DISC/BV-02", Synthetic.breaksEnvironment),
        ])
        let result = try Self.run(catalogue, Synthetic.configuration(iterations: 3))
        #expect(result.tests[1].verdict == .error)
        #expect(result.tests[1].errorOrigin == .environment)
        #expect(result.tests[1].message == "environment: could not bind /tmp/air.sock")
        // A broken environment stays broken: the remaining iterations are not run.
        #expect(result.tests[1].iterations.count == 1)
        #expect(result.tests[0].iterations.count == 3)
        #expect(result.exitCode == .environmentError)
    }

    @Test func exitCodes() throws {
        func exitCode(
            _ bodies: [@Sendable (TestContext) throws -> Void],
            requires: [TestRequirement] = []
        ) throws
            -> RunExitCode
        {
            let tests = bodies.enumerated().map { index, body in
                Synthetic.test("WA/DISC/BV-0\(index + 1)", requires: index == 0 ? requires : [], body)
            }
            return try Self.run(try TestCatalogue(tests), Synthetic.configuration()).exitCode
        }
        #expect(try exitCode([Synthetic.passes, Synthetic.passes]) == .passed)
        #expect(try exitCode([Synthetic.passes, Synthetic.passes], requires: [.publishTTL]) == .passed)
        #expect(try exitCode([Synthetic.passes, Synthetic.fails]) == .testsFailed)
        #expect(try exitCode([Synthetic.passes, Synthetic.throwsError]) == .testsFailed)
        #expect(try exitCode([Synthetic.fails, Synthetic.breaksEnvironment]) == .environmentError)
        #expect(RunSetupError.missingProfile.exitCode == .usageOrProfileError)
        #expect(RunSetupError.noTestsSelected.exitCode.rawValue == 2)
        #expect(RunExitCode.environmentError.rawValue == 3)
    }

    @Test func aTestPastItsVirtualBudgetTimesOut() throws {
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01", budget: .seconds(Int64(1))) { context in
                context.advanceVirtualTime(to: Instant(nanoseconds: 1_000_000_000))
            },
            Synthetic.test("WA/DISC/BV-02", budget: .seconds(Int64(1))) { context in
                context.advanceVirtualTime(to: Instant(nanoseconds: 1_000_000_001))
            },
        ])
        let result = try Self.run(catalogue, Synthetic.configuration())
        #expect(result.tests[0].verdict == .pass)
        #expect(result.tests[1].verdict == .timeout)
        #expect(result.tests[1].message == "ran past its virtual budget of 1 s (reached 1 s)")
    }

    @Test func setupErrorsComeBeforeAnyTestRuns() {
        let catalogue = Synthetic.mixedCatalogue()
        func setupError(_ configuration: RunConfiguration) -> RunSetupError? {
            do {
                _ = try TestRunner(catalogue: catalogue, configuration: configuration)
                return nil
            } catch {
                return error
            }
        }
        #expect(
            setupError(Synthetic.configuration(capabilities: Synthetic.capabilities(profile: nil))) == .missingProfile
        )
        let empty = ProfileFacts(path: "empty.json", services: [])
        #expect(
            setupError(Synthetic.configuration(capabilities: Synthetic.capabilities(profile: empty)))
                == .emptyProfile(path: "empty.json")
        )
        #expect(
            setupError(Synthetic.configuration(only: ["WA/DISC/*", "WA/DISK/*"])) == .unmatchedPatterns(["WA/DISK/*"])
        )
        #expect(setupError(Synthetic.configuration(only: ["WA/PAIR/*"], skip: ["*BV-01"])) == .noTestsSelected)
        #expect(setupError(Synthetic.configuration(jobs: 0)) == .invalidJobs(0))
        #expect(setupError(Synthetic.configuration(iterations: 0)) == .invalidIterations(0))
        #expect(setupError(Synthetic.configuration()) == nil)
        #expect(RunSetupError.missingProfile.description.contains("--profile FILE"))
    }

    // MARK: Seeds

    @Test func seedsFollowTheDocumentedDerivation() throws {
        // Known answers computed outside Swift (docs/reference/reports.md, "Seeds": SplitMix64 of base XOR FNV-1a-64).
        #expect(TestSeed.derive(base: 42, id: try TestID("WA/DISC/MF/BV-03")) == 14_083_010_203_244_700_577)
        #expect(TestSeed.derive(base: 43, id: try TestID("WA/DISC/MF/BV-03")) == 11_905_315_276_364_073_456)
        #expect(TestSeed.derive(base: 0, id: try TestID("WA/DISC/SD/BV-01")) == 17_869_775_533_665_188_696)
        #expect(TestSeed.base(UInt64.max, iteration: 2) == 0)
    }

    @Test func eachTestSeesItsDerivedSeedAndTheSameNumbersEveryRun() throws {
        let seen = Observations<String>()
        let body: @Sendable (TestContext) throws -> Void = { context in
            var generator = context.generator
            seen.append("\(context.id) \(context.iteration) \(context.seed) \(generator.next())")
        }
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/MF/BV-03", body), Synthetic.test("WA/DISC/SD/BV-01", body),
        ])
        _ = try Self.run(catalogue, Synthetic.configuration(seed: 42, iterations: 2))
        let first = seen.all
        _ = try Self.run(catalogue, Synthetic.configuration(seed: 42, iterations: 2))
        #expect(Array(seen.all.dropFirst(4)) == first)
        let mf = try TestID("WA/DISC/MF/BV-03")
        var expected = SeededGenerator(seed: 14_083_010_203_244_700_577)
        #expect(first[0] == "WA/DISC/MF/BV-03 1 14083010203244700577 \(expected.next())")
        // Iteration 2 runs with base seed 43.
        #expect(first[1].hasPrefix("WA/DISC/MF/BV-03 2 \(TestSeed.derive(base: 43, id: mf)) "))
        #expect(Set(first.map { $0.split(separator: " ")[2] }).count == 4)
    }

    @Test func addingATestDoesNotChangeAnotherTestsSeed() throws {
        let one = try Self.run(
            try TestCatalogue([Synthetic.test("WA/DISC/BV-05", Synthetic.passes)]),
            Synthetic.configuration()
        )
        let two = try Self.run(
            try TestCatalogue([
                Synthetic.test("WA/DISC/BV-01", Synthetic.passes), Synthetic.test("WA/DISC/BV-05", Synthetic.passes),
            ]),
            Synthetic.configuration()
        )
        #expect(one.tests[0].seed == two.tests[1].seed)
    }

    // MARK: Iterations

    @Test func iterationsRunWithSuccessiveSeedsAndTheWorstVerdictWins() throws {
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01") { context in
                context.expect(context.iteration != 2, "flaked on iteration \(context.iteration)")
            },
            Synthetic.test("WA/DISC/BV-02", Synthetic.passes),
        ])
        let result = try Self.run(catalogue, Synthetic.configuration(seed: 100, iterations: 3))
        let flaky = result.tests[0]
        #expect(flaky.verdict == .fail)
        #expect(flaky.iterations.map(\.verdict) == [.pass, .fail, .pass])
        #expect(flaky.iterations.map(\.baseSeed) == [100, 101, 102])
        #expect(flaky.iterations.map(\.seed) == [100, 101, 102].map { TestSeed.derive(base: $0, id: flaky.id) })
        #expect(flaky.message == "flaked on iteration 2")
        #expect(flaky.seed == flaky.iterations[0].seed)
        // The rerun command reproduces the failing iteration alone.
        #expect(flaky.rerunCommand?.contains("--seed 101 --only WA/DISC/BV-01 --iterations 1") == true)
        #expect(result.tests[1].verdict == .pass)
        #expect(result.tests[1].iterations.count == 3)
        #expect(result.tests[1].virtualSeconds == 4.5)
    }

    @Test func theRerunCommandReproducesTheFailingIteration() throws {
        let seeds = Observations<UInt64>()
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/MF/BV-03") { context in
                seeds.append(context.seed)
                context.expect(context.iteration != 3, "fails on iteration 3")
            }
        ])
        let result = try Self.run(catalogue, Synthetic.configuration(seed: 7, iterations: 4))
        let failingSeed = result.tests[0].iterations[2].seed
        let rerun = try #require(result.tests[0].rerunCommand)
        #expect(
            rerun
                == "aware-conform run --profile Profiles/drone.json --target embedded --seed 9 --only WA/DISC/MF/BV-03 --iterations 1"
        )
        let words = rerun.split(separator: " ").map(String.init)
        let seedIndex = try #require(words.firstIndex(of: "--seed"))
        let onlyIndex = try #require(words.firstIndex(of: "--only"))
        let seed = try #require(UInt64(words[seedIndex + 1]))
        let only = words[onlyIndex + 1]
        let again = try Self.run(catalogue, Synthetic.configuration(seed: seed, only: [only], iterations: 1))
        #expect(again.tests[0].iterations[0].seed == failingSeed)
        #expect(seeds.all.last == failingSeed)
    }

    @Test func rerunArgumentsAreShellQuoted() throws {
        let command = RerunCommand(baseArguments: ["aware-conform", "run", "--profile", "My Profiles/it's.json"])
        #expect(
            command.render(baseSeed: 1, id: try TestID("WA/DISC/BV-01"))
                == "aware-conform run --profile 'My Profiles/it'\\''s.json' --seed 1 --only WA/DISC/BV-01 --iterations 1"
        )
        #expect(RerunCommand.shellQuoted("") == "''")
        #expect(RerunCommand.shellQuoted("socket:/run/user/1000/air.sock") == "socket:/run/user/1000/air.sock")
        #expect(RerunCommand.shellQuoted("a$b") == "'a$b'")
    }

    // MARK: Parallel jobs

    @Test func parallelJobsRunConcurrentlyAndReportLikeOneJob() throws {
        let running = Observations<Int>()
        let gauge = ConcurrencyGauge()
        var tests: [ConformanceTest] = []
        for number in 1...8 {
            tests.append(
                Synthetic.test("WA/DISC/BV-0\(number)") { context in
                    gauge.enter()
                    Thread.sleep(forTimeInterval: 0.05)
                    gauge.leave()
                    running.append(number)
                    try Synthetic.passes(context)
                    if number % 3 == 0 { context.fail("planted failure \(number)") }
                }
            )
        }
        let catalogue = try TestCatalogue(tests.reversed())
        let serial = try Self.run(catalogue, Synthetic.configuration(jobs: 1))
        let parallel = try Self.run(catalogue, Synthetic.configuration(jobs: 4))
        #expect(gauge.maximum > 1)
        #expect(ReportNormalizer.comparable(serial) == ReportNormalizer.comparable(parallel))
        #expect(parallel.tests.map(\.id) == catalogue.ids)
    }

    @Test func consoleOutputIsInCatalogueOrderWhateverFinishesFirst() throws {
        var tests: [ConformanceTest] = []
        for number in 1...6 {
            // Earlier tests take longer, so with jobs they finish last.
            let delay = 0.02 * Double(7 - number)
            tests.append(Synthetic.test("WA/DISC/BV-0\(number)") { _ in Thread.sleep(forTimeInterval: delay) })
        }
        let output = CapturedOutput()
        let reporter = ConsoleReporter(style: .plain) { output.write($0) }
        _ = try TestRunner(catalogue: try TestCatalogue(tests), configuration: Synthetic.configuration(jobs: 6))
            .run(observer: reporter)
        let progress = output.value.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(progress.map { String($0.prefix(5)) } == ["[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]"])
        #expect(
            progress.map { $0.contains("WA/DISC/BV-0\($0.dropFirst().prefix(1))") } == Array(repeating: true, count: 6)
        )
    }

    // MARK: Shards

    @Test func everyTestIsInExactlyOneShardAndShardsHoldOnlyTheirOwn() throws {
        let catalogue = Synthetic.mixedCatalogue()
        for count in 1...7 {
            var seen: [String] = []
            for index in 1...count {
                let shard = try Shard(index: index, count: count)
                let runner = try TestRunner(catalogue: catalogue, configuration: Synthetic.configuration(shard: shard))
                let result = runner.run()
                #expect(result.metadata.shard == shard)
                let ids = result.tests.map(\.id.description)
                #expect(ids == runner.tests.map(\.id.description))
                seen += ids
                let json = JSONReport.render(result)
                let junit = JUnitReport.render(result)
                for test in catalogue.tests where !ids.contains(test.id.description) {
                    #expect(!json.contains("\"\(test.id)\""), "shard \(shard) JSON holds \(test.id)")
                    #expect(!junit.contains("name=\"\(test.id)\""), "shard \(shard) JUnit holds \(test.id)")
                }
            }
            #expect(seen.sorted() == catalogue.ids.map(\.description).sorted(), "\(count) shards")
        }
        // Round-robin over the sorted selection: shard 2/3 takes positions 1 and 4.
        let second = try TestRunner(
            catalogue: catalogue,
            configuration: Synthetic.configuration(shard: try Shard("2/3"))
        )
        #expect(second.tests.map(\.id.description) == ["WA/DISC/SD/BV-01", "WA/DISC/SD/BI-01"])
    }

    @Test func malformedShardsAreUsageErrors() {
        for text in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", "-1/2", ""] {
            #expect(throws: RunSetupError.invalidShard(text)) { try Shard(text) }
        }
        #expect((try? Shard("2/2"))?.description == "2/2")
    }
}

/// The most bodies seen running at once.
final class ConcurrencyGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            current += 1
            peak = max(peak, current)
        }
    }

    func leave() { lock.withLock { current -= 1 } }
    var maximum: Int { lock.withLock { peak } }
}
