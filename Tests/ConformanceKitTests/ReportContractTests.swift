import Foundation
import Testing

@testable import ConformanceKit

/// docs/reference/reports.md is the contract accessory makers' CI parses: every key the real outputs carry is
/// documented there, and every documented key is in the real outputs.
@Suite struct ReportContractTests {
    static let document =
        (try? String(
            contentsOf: ReportJSONTests.repository.appendingPathComponent("docs/reference/reports.md"),
            encoding: .utf8
        )) ?? ""

    /// The backticked first cells of the table under `heading`.
    static func documentedKeys(under heading: String) throws -> [String] {
        let lines = document.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "docs/reference/reports.md has no \(heading)")
        var keys: [String] = []
        var inTable = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("|") {
                inTable = true
                let cell = line.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if cell.hasPrefix("`"), cell.hasSuffix("`") { keys.append(String(cell.dropFirst().dropLast())) }
            } else if inTable {
                break
            }
        }
        return keys
    }

    static func keys(_ value: Any?) -> Set<String> { Set((value as? [String: Any])?.keys.map { $0 } ?? []) }

    @Test func everyJSONReportKeyIsDocumentedAndEveryDocumentedKeyIsWritten() throws {
        let reports = try ReportJSONTests.sampleReports().map(ReportNormalizer.object)
        var top: Set<String> = []
        var run: Set<String> = []
        var summary: Set<String> = []
        var test: Set<String> = []
        var iteration: Set<String> = []
        for report in reports {
            top.formUnion(Self.keys(report))
            run.formUnion(Self.keys(report["run"]))
            summary.formUnion(Self.keys(report["summary"]))
            for entry in report["tests"] as? [[String: Any]] ?? [] {
                test.formUnion(entry.keys)
                for step in entry["iterations"] as? [[String: Any]] ?? [] { iteration.formUnion(step.keys) }
            }
        }
        #expect(top == Set(try Self.documentedKeys(under: "### Top level")))
        #expect(run == Set(try Self.documentedKeys(under: "### `run`")))
        #expect(summary == Set(try Self.documentedKeys(under: "### `summary`")))
        #expect(test == Set(try Self.documentedKeys(under: "### A test (`tests[]`)")))
        #expect(iteration == Set(try Self.documentedKeys(under: "### An iteration (`tests[].iterations[]`)")))
    }

    @Test func eventLinesFollowTheDocumentedShape() throws {
        let directory = Synthetic.temporaryDirectory()
        var tests = Synthetic.mixedCatalogue().tests
        tests.append(
            Synthetic.test("WA/DISC/SD/BV-30", "Log everything") { context in
                context.log(
                    "odd",
                    ["t": .string("shadowed"), "event": .string("shadowed"), "zeta": .bool(true), "alpha": .null]
                )
            }
        )
        _ = try TestRunner(
            catalogue: try TestCatalogue(tests),
            configuration: Synthetic.configuration(evidence: .everyTest(directory: directory))
        ).run()
        let lineKeys = try Self.documentedKeys(under: "## `events.jsonl`")
        #expect(lineKeys == ["t", "event"])
        let documentedEvents = try Self.documentedKeys(under: "Events every test has:")
        #expect(documentedEvents == ["test-started", "expectation-failed", "test-finished"])

        var seenEvents: Set<String> = []
        for file in RunnerEvidenceTests.files(under: directory) where file.hasSuffix("events.jsonl") {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            #expect(text.hasSuffix("\n"))
            let lines = text.split(separator: "\n").map(String.init)
            var previousTime = -1.0
            for line in lines {
                // Field by field: `t` first (a number), `event` second (a string), the rest sorted.
                #expect(line.hasPrefix("{\"t\":"))
                #expect(
                    line.range(of: #"^\{"t":[0-9]+(\.[0-9]+)?,"event":""#, options: .regularExpression) != nil,
                    "\(line)"
                )
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let time = try #require(object["t"] as? Double)
                #expect(time >= previousTime)
                previousTime = time
                let event = try #require(object["event"] as? String)
                #expect(event.range(of: #"^[a-z]+(-[a-z]+)*$"#, options: .regularExpression) != nil)
                seenEvents.insert(event)
                switch event {
                case "test-started":
                    #expect(Set(object.keys) == ["t", "event", "id", "title", "seed", "iteration", "budget"])
                    #expect(UInt64(object["seed"] as? String ?? "") != nil)
                case "expectation-failed":
                    #expect(Set(object.keys) == ["t", "event", "message", "location"])
                case "test-finished":
                    let verdict = try #require(object["verdict"] as? String)
                    var expected: Set<String> = ["t", "event", "verdict"]
                    if verdict != "pass" { expected.insert("message") }
                    if verdict == "error" { expected.insert("errorOrigin") }
                    #expect(Set(object.keys) == expected, "\(line)")
                default:
                    break
                }
            }
            #expect(try RunnerEvidenceTests.eventName(lines[0]) == "test-started")
            #expect(try RunnerEvidenceTests.eventName(lines[lines.count - 1]) == "test-finished")
        }
        #expect(seenEvents.isSuperset(of: documentedEvents))
        let odd = try String(contentsOfFile: "\(directory)/WA_DISC_SD_BV-30/events.jsonl", encoding: .utf8)
        #expect(odd.contains("{\"t\":0,\"event\":\"odd\",\"alpha\":null,\"zeta\":true}\n"))
    }

    @Test func theDocumentedExitCodesAndVerdictsAreTheCodes() throws {
        let verdicts = try Self.documentedKeys(under: "## Verdicts")
        #expect(verdicts == TestVerdict.allCases.map(\.rawValue))
        #expect(Self.document.contains("| 3 | environment error"))
        #expect(Self.document.contains("WA_DISC_MF_BV-03/events.jsonl"))
        #expect(try TestID("WA/DISC/MF/BV-03").fileName == "WA_DISC_MF_BV-03")
        #expect(Self.document.contains("`\(JSONReport.format)`") || Self.document.contains("\"\(JSONReport.format)\""))
    }
}
