import AwareCore
import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

/// The wall-clock guard: a body that never returns costs its guard and no more, its evidence is
/// flushed, and the run goes on with the next test.
@Suite struct RunnerTimeoutTests {
    @Test func aBodyThatNeverReturnsDoesNotHangTheRun() throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let directory = Synthetic.temporaryDirectory()
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01", wallLimit: .milliseconds(300)) { context in
                context.advanceVirtualTime(to: Instant(nanoseconds: 250_000_000))
                context.log("waiting-for-publish", [:])
                context.capture(CaptureRecord(timestamp: 5, frame: [0xD0, 0x00]))
                release.wait()
                context.log("after-the-guard", [:])
            },
            Synthetic.test("WA/DISC/BV-02", Synthetic.passes),
        ])
        let started = ContinuousClock.now
        let result = try TestRunner(
            catalogue: catalogue,
            configuration: Synthetic.configuration(evidence: .everyTest(directory: directory))
        ).run()
        // The stuck body would wait for ever; a bound far above the 300 ms guard proves the run
        // moved on without being sensitive to a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(30))
        let stuck = result.tests[0]
        #expect(stuck.verdict == .timeout)
        #expect(stuck.message == "no verdict within the wall-clock guard of 0.3 s; the test was abandoned")
        #expect(stuck.iterations[0].wallSeconds >= 0.3)
        #expect(stuck.rerunCommand != nil)
        #expect(result.tests[1].verdict == .pass)
        #expect(result.exitCode == .testsFailed)

        // The log is flushed up to the guard and ends with the verdict.
        let events = try String(contentsOfFile: "\(directory)/WA_DISC_BV-01/events.jsonl", encoding: .utf8)
        let names = events.split(separator: "\n").map { try? RunnerEvidenceTests.eventName(String($0)) }
        #expect(names == ["test-started", "waiting-for-publish", "test-finished"])
        #expect(
            events.hasSuffix(
                "{\"t\":0.25,\"event\":\"test-finished\",\"message\":\"\(stuck.message ?? "")\",\"verdict\":\"timeout\"}\n"
            )
        )
        let pcap = try PcapFile(
            bytes: Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/WA_DISC_BV-01/capture.pcap")))
        )
        #expect(pcap.records.count == 1)

        // Whatever the abandoned body does later reaches neither the evidence nor the result.
        release.signal()
        Thread.sleep(forTimeInterval: 0.1)
        let after = try String(contentsOfFile: "\(directory)/WA_DISC_BV-01/events.jsonl", encoding: .utf8)
        #expect(after == events)
    }

    @Test func anAsyncBodyIsCancelledAtTheGuard() async throws {
        let cancelled = Observations<Bool>()
        let test = try ConformanceTest(
            id: "WA/DISC/BV-01",
            title: "waits forever",
            wallLimit: .milliseconds(200),
            body: .async { context in
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    cancelled.append(context.isCancelled)
                    throw error
                }
            }
        )
        let result = try await TestRunner(
            catalogue: try TestCatalogue([test]),
            configuration: Synthetic.configuration()
        )
        .run()
        #expect(result.tests[0].verdict == .timeout)
        for _ in 0..<1_500 where cancelled.all.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(cancelled.all == [true])
    }

    @Test func anAsyncBodyThatReturnsIsJudgedLikeABlockingOne() async throws {
        let test = try ConformanceTest(
            id: "WA/DISC/BV-01",
            title: "async",
            body: .async { context in
                try await Task.sleep(for: .milliseconds(5))
                context.expect(false, "async failure")
            }
        )
        let result = try await TestRunner(
            catalogue: try TestCatalogue([test]),
            configuration: Synthetic.configuration()
        )
        .run()
        #expect(result.tests[0].verdict == .fail)
        #expect(result.tests[0].message == "async failure")
    }

    @Test func aLoopThatPollsCancellationStopsAndTheNextIterationsAreNotRun() throws {
        let loops = Observations<Int>()
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01", wallLimit: .milliseconds(200)) { context in
                while !context.isCancelled { Thread.sleep(forTimeInterval: 0.01) }
                loops.append(context.iteration)
            }
        ])
        let result = try TestRunner(catalogue: catalogue, configuration: Synthetic.configuration(iterations: 3)).run()
        #expect(result.tests[0].verdict == .timeout)
        #expect(result.tests[0].iterations.count == 1)
        #expect(result.tests[0].plannedIterations == 3)
        for _ in 0..<50 where loops.all.isEmpty { Thread.sleep(forTimeInterval: 0.02) }
        #expect(loops.all == [1])
    }

    @Test func stuckTestsInParallelJobsDoNotStarveTheOthers() throws {
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0..<2 { release.signal() } }
        var tests = (1...2).map { number in
            Synthetic.test("WA/DISC/BI-0\(number)", wallLimit: .milliseconds(300)) { _ in release.wait() }
        }
        tests += (1...6).map { Synthetic.test("WA/DISC/BV-0\($0)", Synthetic.passes) }
        let started = ContinuousClock.now
        let result = try TestRunner(
            catalogue: try TestCatalogue(tests),
            configuration: Synthetic.configuration(jobs: 2)
        ).run()
        // The stuck body would wait for ever; a bound far above the 300 ms guard proves the run
        // moved on without being sensitive to a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(result.count(.pass) == 6)
        #expect(result.count(.timeout) == 2)
    }
}
