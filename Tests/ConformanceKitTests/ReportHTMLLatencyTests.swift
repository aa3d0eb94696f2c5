import AwareCore
import AwareProtocol
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

/// Latency histograms from a test through the JSON report (schema, parser) to the HTML page, against
/// bucket counts this file works out on its own from the samples.
@Suite struct ReportHTMLLatencyTests {
    /// Milliseconds; 0.2 and 5 sit exactly on bounds, 2500 is above the last.
    static let samples: [Double] = [0.05, 0.2, 0.21, 0.7, 0.7, 3, 5, 5.01, 40, 180, 2500]
    /// The documented bounds (docs/reference/reports.md): 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500,
    /// 1000 ms, and above.
    static let expectedCounts = [1, 1, 1, 2, 0, 2, 1, 0, 1, 0, 1, 0, 0, 1]

    static func run(evidence: String) throws -> RunResult {
        let intervals = samples.map { Interval(nanoseconds: Int64(($0 * 1e6).rounded())) }
        let test = Synthetic.test("WA/PERF/BV-40", "Measures") { context in
            if let histogram = LatencyHistogram(accessCategory: .video, measure: .oneWay, samples: intervals) {
                context.record(latency: histogram)
            }
            if let histogram = LatencyHistogram(accessCategory: .voice, measure: .transmit, samples: [intervals[0]]) {
                context.record(latency: histogram)
            }
            context.expect(false, "p99 within the budget")
        }
        let configuration = Synthetic.configuration(evidence: .everyTest(directory: evidence))
        return try TestRunner(catalogue: try TestCatalogue([test]), configuration: configuration).run()
    }

    @Test func theJSONReportCarriesTheBucketsAndValidates() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let path = directory + "/r.json"
        try JSONReport.render(run).write(toFile: path, atomically: true, encoding: .utf8)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        let tests = try #require(document["tests"] as? [[String: Any]])
        let iterations = try #require(tests.first?["iterations"] as? [[String: Any]])
        let latency = try #require(iterations.first?["latency"] as? [[String: Any]])
        #expect(latency.count == 2)
        let oneWay = try #require(latency.first)
        #expect(oneWay["accessCategory"] as? String == "AC_VI")
        #expect(oneWay["measure"] as? String == "one-way")
        #expect(oneWay["samples"] as? Int == Self.samples.count)
        // Nearest rank: p50 of 11 sorted samples is the 6th, p99 the 11th.
        #expect(oneWay["p50Ms"] as? Double == 3)
        #expect(oneWay["p99Ms"] as? Double == 2500)
        let buckets = try #require(oneWay["buckets"] as? [[String: Any]])
        #expect(buckets.map { $0["count"] as? Int ?? -1 } == Self.expectedCounts)
        #expect(buckets.last?["upToMs"] is NSNull)
        #expect(buckets.first?["upToMs"] as? Double == 0.1)

        let python = try #require(ExternalTool.pythonWithJSONSchema(), "\(ExternalTool.setupAdvice)")
        let schema = ReportHTMLTests.repository.appendingPathComponent("docs/reference/report.schema.json").path
        let validation = try ExternalTool.validateJSONSchema(python: python, schema: schema, document: path)
        #expect(validation.status == 0, "\(validation.errors)")
    }

    @Test func theParserReadsHistogramsBackAndOlderReportsWithoutThem() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let text = JSONReport.render(run)
        let parsed = try RunReportParser.parse(Data(text.utf8), file: "r.json")
        #expect(parsed.tests.first?.iterations.first?.latency == run.tests.first?.iterations.first?.latency)
        #expect(run.tests.first?.iterations.first?.latency.count == 2)

        // A report from before the key existed: every `"latency": [...]` member removed.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var tests = try #require(object["tests"] as? [[String: Any]])
        for index in tests.indices {
            var iterations = try #require(tests[index]["iterations"] as? [[String: Any]])
            for inner in iterations.indices { iterations[inner].removeValue(forKey: "latency") }
            tests[index]["iterations"] = iterations
        }
        object["tests"] = tests
        let older = try JSONSerialization.data(withJSONObject: object)
        #expect(!String(decoding: older, as: UTF8.self).contains("\"latency\""))
        let read = try RunReportParser.parse(older, file: "old.json")
        #expect(read.tests.first?.iterations.first?.latency == [])

        let wrong = text.replacingOccurrences(of: "\"AC_VI\"", with: "\"AC_XX\"")
        #expect(throws: RunReportMergeError.self) { try RunReportParser.parse(Data(wrong.utf8), file: "w.json") }
    }

    @Test func thePageDrawsOneBarPerBucketWithItsCount() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let page = directory + "/report.html"
        try HTMLReport(run: run, pagePath: page, workingDirectory: directory).render()
            .write(toFile: page, atomically: true, encoding: .utf8)
        let findings = try HTMLJudge.judge(page)
        let section = try #require(findings.sections.first)
        #expect(
            section.histograms == [
                .init(accessCategory: "AC_VI", measure: "one-way", counts: Self.expectedCounts),
                .init(accessCategory: "AC_VO", measure: "transmit", counts: [1] + Array(repeating: 0, count: 13)),
            ]
        )
        #expect(findings.text.contains("AC_VI: one-way latency of the accessory's datagrams; 11 samples, p50 3.00 ms"))
        #expect(findings.activeElements.isEmpty && findings.styleReferences.isEmpty)
    }
}
