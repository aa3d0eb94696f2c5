import AwareTestSupport
import Foundation
import Testing

@testable import ConformanceKit

/// The JSON report of real runs judged by docs/reference/report.schema.json through Python's `jsonschema` (an
/// independent validator), and compared across runs.
@Suite struct ReportJSONTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schema = repository.appendingPathComponent("docs/reference/report.schema.json").path

    static let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            document = json.load(open(path, encoding="utf-8"))
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            for error in errors:
                print("INVALID", path, "/".join(str(p) for p in error.absolute_path), error.message)
            if not errors:
                print("VALID", path)
        """

    /// Reports of runs that exercise every verdict, evidence, shards and iterations.
    static func sampleReports() throws -> [String] {
        var reports = [JSONReport.render(try ReportJUnitTests.mixedRun())]
        let catalogue = Synthetic.mixedCatalogue()
        reports.append(
            JSONReport.render(
                try TestRunner(
                    catalogue: catalogue,
                    configuration: Synthetic.configuration(
                        skip: ["*BI*"],
                        jobs: 2,
                        shard: try Shard("1/2"),
                        iterations: 2,
                        evidence: .everyTest(directory: Synthetic.temporaryDirectory())
                    )
                ).run()
            )
        )
        var wallClock = Synthetic.configuration(only: ["WA/DISC/SD/*"])
        wallClock.clock = .wall
        reports.append(JSONReport.render(try TestRunner(catalogue: catalogue, configuration: wallClock).run()))
        return reports
    }

    @Test func realReportsValidateAgainstTheSchema() throws {
        guard let python = ExternalTool.pythonWithJSONSchema() else {
            Issue.record("no python3 with the jsonschema module; run ./ci/setup (installs python3-jsonschema)")
            return
        }
        let directory = Synthetic.temporaryDirectory()
        var paths: [String] = []
        for (index, report) in try Self.sampleReports().enumerated() {
            let path = "\(directory)/report-\(index).json"
            try Data(report.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let result = try ExternalTool.run(python + ["-c", Self.script, Self.schema] + paths)
        try #require(result.status == 0, "the jsonschema script failed")
        let verdicts = result.output.split(separator: "\n")
        #expect(verdicts.filter { $0.hasPrefix("VALID ") }.count == paths.count, "\(result.output)")
        #expect(!result.output.contains("INVALID"), "\(result.output)")
    }

    @Test func theSchemaRejectsAReportThatBreaksTheContract() throws {
        guard let python = ExternalTool.pythonWithJSONSchema() else {
            Issue.record("no python3 with the jsonschema module; run ./ci/setup (installs python3-jsonschema)")
            return
        }
        let report = JSONReport.render(try ReportJUnitTests.mixedRun())
        let broken = [
            report.replacingOccurrences(of: "\"format\": \"aware-conform-report/1\"", with: "\"format\": \"x/2\""),
            report.replacingOccurrences(of: "\"verdict\": \"timeout\"", with: "\"verdict\": \"hung\""),
            report.replacingOccurrences(of: "\"seed\": \"42\"", with: "\"seed\": 42"),
            report.replacingOccurrences(of: "\"rerun\": null", with: "\"rerun\": \"x\""),
            report.replacingOccurrences(of: "\"tags\": [", with: "\"extra\": 1, \"tags\": ["),
        ]
        let directory = Synthetic.temporaryDirectory()
        var paths: [String] = []
        for (index, text) in broken.enumerated() {
            #expect(text != report, "mutation \(index) changed nothing")
            let path = "\(directory)/broken-\(index).json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let result = try ExternalTool.run(python + ["-c", Self.script, Self.schema] + paths)
        for path in paths { #expect(result.output.contains("INVALID \(path)"), "\(path) was accepted") }
    }

    @Test func theReportCarriesTheRunAndEveryTest() throws {
        let run = try ReportJUnitTests.mixedRun()
        let object = try ReportNormalizer.object(JSONReport.render(run))
        #expect(object["format"] as? String == "aware-conform-report/1")
        let metadata = try #require(object["run"] as? [String: Any])
        #expect(metadata["seed"] as? String == "42")
        #expect(metadata["target"] as? String == "embedded")
        #expect(metadata["profile"] as? String == "Profiles/drone.json")
        #expect(metadata["shard"] is NSNull)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["exitCode"] as? Int == 3)
        #expect(summary["fail"] as? Int == 2)
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["id"] as? String ?? "" } == run.tests.map(\.id.description))
        let failed = try #require(tests.first { $0["id"] as? String == "WA/DISC/MF/BV-03" })
        #expect(failed["tags"] as? [String] == ["filters"])
        #expect(failed["message"] as? String == "discovered services: expected 1, got 0")
        #expect(failed["reason"] is NSNull)
        #expect(failed["virtualSeconds"] as? Double == 2)
        #expect((failed["rerun"] as? String)?.hasSuffix("--seed 42 --only WA/DISC/MF/BV-03 --iterations 1") == true)
        let iterations = try #require(failed["iterations"] as? [[String: Any]])
        #expect((iterations[0]["failures"] as? [Any])?.count == 2)
        #expect((iterations[0]["evidence"] as? [String: Any])?["capture"] as? String != nil)
        let skipped = try #require(tests.first { $0["verdict"] as? String == "skip" })
        #expect(skipped["reason"] as? String == "the profile publishes 1 service, the test needs at least 2")
        #expect(skipped["virtualSeconds"] is NSNull)
    }

    @Test func twoRunsWithTheSameSeedGiveTheSameReportTimestampsAside() throws {
        let catalogue = Synthetic.mixedCatalogue()
        let first = try TestRunner(catalogue: catalogue, configuration: Synthetic.configuration(seed: 9)).run()
        let second = try TestRunner(catalogue: catalogue, configuration: Synthetic.configuration(seed: 9)).run()
        let other = try TestRunner(catalogue: catalogue, configuration: Synthetic.configuration(seed: 10)).run()
        #expect(ReportNormalizer.comparable(first) == ReportNormalizer.comparable(second))
        #expect(ReportNormalizer.comparable(first) != ReportNormalizer.comparable(other))
    }
}

/// Removes what the contract says varies between runs (docs/reference/reports.md: timestamps, wall times, the
/// evidence root) and `run.jobs`, so reports of equal runs compare equal as text.
enum ReportNormalizer {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func comparable(_ run: RunResult) -> String {
        var text = JSONReport.render(run)
        text = text.replacingOccurrences(of: run.metadata.evidenceDirectory, with: "<evidence>")
        let varying = [
            #""(startedAt|finishedAt)": "[^"]*""#, #""wallSeconds": [0-9.e+-]+"#, #""jobs": [0-9]+"#,
        ]
        for pattern in varying {
            text = text.replacingOccurrences(of: pattern, with: "<varies>", options: .regularExpression)
        }
        return text
    }
}
