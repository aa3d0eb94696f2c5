import Foundation
import Testing

@testable import ConformanceKit

@Suite struct ReportConsoleTests {
    static func console(_ style: ConsoleStyle = .plain, jobs: Int = 1) throws -> (String, RunResult) {
        let output = CapturedOutput()
        let result = try TestRunner(
            catalogue: Synthetic.mixedCatalogue(),
            configuration: Synthetic.configuration(jobs: jobs)
        ).run(observer: ConsoleReporter(style: style) { output.write($0) })
        return (output.value, result)
    }

    @Test func oneLinePerTestThenTheSummary() throws {
        let (text, result) = try Self.console()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines[0]
                == "aware-conform 0.0.0-test: 6 tests, target embedded, profile Profiles/drone.json, phone reference, seed 42"
        )
        let progress = lines.filter { $0.hasPrefix("[") }
        #expect(progress.count == 6)
        #expect(progress[0].hasPrefix("[1/6] FAIL     WA/DISC/MF/BV-03  Matching filter row 3 matches  ("))
        #expect(progress[0].hasSuffix(" s, 2 s virtual)") == false)
        #expect(progress[0].range(of: #"\(\d+\.\d{3} s, 2\.000 s virtual\)$"#, options: .regularExpression) != nil)
        #expect(
            progress[1].hasPrefix("[2/6] PASS     WA/DISC/SD/BV-01  Solicited publish answers an active subscribe  (")
        )
        #expect(
            progress[3]
                == "[4/6] SKIP     WA/DISC/SD/BV-10  Several services  (the profile publishes 1 service, the test needs at least 2)"
        )
        #expect(progress[4].hasPrefix("[5/6] ERROR    WA/DISC/SD/BI-01"))
        #expect(text.contains("         RunnerSyntheticTests.swift:"))
        #expect(text.contains(": discovered services: expected 1, got 0\n"))
        #expect(text.contains("         seed \(result.tests[0].seed)\n"))
        #expect(
            text.contains(
                "         rerun: aware-conform run --profile Profiles/drone.json --target embedded --seed 42 --only WA/DISC/MF/BV-03 --iterations 1\n"
            )
        )
        #expect(text.contains("         the test threw BrokenTest: index out of range in the test\n"))
        #expect(!text.contains("\u{1B}["))

        let table = lines.drop { !$0.hasPrefix("group") }
        #expect(table.first == "group    tests   pass   fail   skip  error  timeout")
        #expect(table.dropFirst().first == "WA/DISC      5      2      1      1      1        0")
        #expect(table.dropFirst(2).first == "WA/PAIR      1      1      0      0      0        0")
        #expect(table.dropFirst(3).first == "all          6      3      1      1      1        0")
        #expect(text.contains("\n6 tests in "))
        #expect(text.contains(" (seed 42)\n"))
        #expect(text.hasSuffix("FAILED (exit 1)\n"))
    }

    @Test func theViewIsTheSameWithParallelJobs() throws {
        let strip = { (console: (String, RunResult)) in
            console.0.replacingOccurrences(of: console.1.metadata.evidenceDirectory, with: "<evidence>")
                .replacingOccurrences(of: #"\d+\.\d{3} s"#, with: "<t>", options: .regularExpression)
                .replacingOccurrences(of: ", jobs 4", with: "")
        }
        #expect(strip(try Self.console(jobs: 1)) == strip(try Self.console(jobs: 4)))
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        #expect(ConsoleStyle.detect(environment: [:], isTerminal: true).colour)
        #expect(!ConsoleStyle.detect(environment: [:], isTerminal: false).colour)
        #expect(!ConsoleStyle.detect(environment: ["NO_COLOR": "1"], isTerminal: true).colour)
        #expect(ConsoleStyle.detect(environment: ["NO_COLOR": ""], isTerminal: true).colour)
        let (text, _) = try Self.console(ConsoleStyle(colour: true))
        #expect(text.contains("\u{1B}[31mFAIL   \u{1B}[0m"))
        #expect(text.contains("\u{1B}[32mPASS   \u{1B}[0m"))
    }

    @Test func anEmptyShardSaysSo() throws {
        let catalogue = try TestCatalogue([Synthetic.test("WA/DISC/BV-01", Synthetic.passes)])
        let output = CapturedOutput()
        let result = try TestRunner(
            catalogue: catalogue,
            configuration: Synthetic.configuration(shard: try Shard("2/2"))
        )
        .run(observer: ConsoleReporter(style: .plain) { output.write($0) })
        #expect(result.tests.isEmpty)
        #expect(result.exitCode == .passed)
        #expect(output.value.contains("This shard holds no tests of the selection.\n"))
    }
}
