import AwareTestSupport
import Foundation
import Testing

/// `--html` through the real program: the page of a failing drone run, judged by Python's parsers
/// against the JSON report of the same run and by tshark against each failing test's capture; and
/// `merge --html` of shards against `run --html` of the unsharded run.
@Suite struct HTMLReportTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-html-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func tests(_ json: String) throws -> [[String: Any]] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        )
        return try #require(document["tests"] as? [[String: Any]])
    }

    static let pairing = [
        "run", "--profile", "Profiles/drone.json", "--only", "WA/PAIR/*", "--fault", "sae-wrong-pin", "--seed", "3",
    ]

    @Test func theRunPageHasEveryTestOfTheJSONReportAndOneArrowPerCapturedFrame() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // The page one directory below the evidence, so its links must climb out of it.
        try FileManager.default.createDirectory(atPath: path("page"), withIntermediateDirectories: true)
        let outcome = try await CommandRunner.run(
            "aware-conform",
            Self.pairing + ["--json", path("r.json"), "--html", path("page/report.html"), "--evidence", path("ev")]
        )
        #expect(outcome.status == 1, "\(outcome.standardOutput.suffix(1500))\(outcome.standardError)")
        let tests = try Self.tests(path("r.json"))
        let findings = try HTMLJudge.judge(path("page/report.html"))

        let expected = tests.map { [$0["id"] as? String ?? "", $0["verdict"] as? String ?? ""] }
        #expect(expected.count >= 5)
        #expect(Set(findings.sections.map { [$0.id, $0.verdict] }) == Set(expected))
        #expect(findings.sections.count == expected.count)
        #expect(findings.sections.allSatisfy { $0.label == $0.verdict.uppercased() })
        let failing = tests.filter { ["fail", "error", "timeout"].contains($0["verdict"] as? String) }
        #expect(!failing.isEmpty)
        #expect(findings.sections.prefix(failing.count).map(\.id) == failing.map { $0["id"] as? String ?? "" })

        for test in failing {
            let id = test["id"] as? String ?? ""
            let iterations = try #require(test["iterations"] as? [[String: Any]])
            let evidence = try #require(iterations.first?["evidence"] as? [String: Any])
            let capture = try #require(evidence["capture"] as? String)
            let frames = try HTMLJudge.tsharkFrameCount(capture)
            let section = try #require(findings.sections.first { $0.id == id })
            #expect(frames > 0, "\(id)")
            #expect(section.arrows == frames, "\(id): \(section.arrows) arrows, tshark counts \(frames) frames")
            #expect(section.missing == 0, "\(id)")
            #expect(findings.text.contains(try #require(test["rerun"] as? String)))
        }
        for section in findings.sections where section.verdict == "pass" { #expect(section.arrows == 0) }

        #expect(findings.activeElements.isEmpty && findings.handlers.isEmpty && findings.styleReferences.isEmpty)
        let files = findings.links.filter { !$0.hasPrefix("#") }
        #expect(!files.isEmpty)
        for link in files {
            #expect(!HTMLJudge.isExternal(link), "\(link)")
            #expect(link.hasPrefix("../ev/"), "\(link)")
            let target = directory.appendingPathComponent("page").appendingPathComponent(
                link.removingPercentEncoding ?? link
            ).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: target), "\(link)")
        }
    }

    static let discovery = [
        "run", "--profile", "Profiles/drone.json", "--only", "WA/DISC/MF/*", "--only", "WA/DISC/PUB/*",
        "--fault", "ignore-match-filter", "--seed", "5",
    ]

    @Test func mergeOfShardsGivesTheSamePageAsTheUnshardedRun() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let whole = try await CommandRunner.run("aware-conform", Self.discovery + ["--html", path("all.html")])
        #expect(whole.status == 1, "\(whole.standardOutput.suffix(1500))")
        var shards: [String] = []
        for index in 1...3 {
            let shard = path("shard-\(index).json")
            let outcome = try await CommandRunner.run(
                "aware-conform",
                Self.discovery + ["--shard", "\(index)/3", "--json", shard, "--evidence", path("shard-\(index)")]
            )
            #expect(outcome.status <= 1, "\(outcome.standardOutput.suffix(1500))")
            shards.append(shard)
        }
        let merged = try await CommandRunner.run("aware-conform", ["merge"] + shards + ["--html", path("merged.html")])
        #expect(merged.status == 1, "\(merged.standardError)")
        #expect(merged.standardOutput.hasPrefix("merged "))

        let run = try HTMLJudge.judge(path("all.html"))
        let union = try HTMLJudge.judge(path("merged.html"))
        #expect(run.sections.count >= 6)
        #expect(run.sections.contains { $0.verdict == "fail" && $0.arrows > 0 })
        // Same tests, order, verdicts and diagrams: the same seed gives the same frames in a shard.
        #expect(union.sections == run.sections)
    }

    @Test func mergeMarksAMissingCaptureAndRefusesAMalformedShard() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let outcome = try await CommandRunner.run(
            "aware-conform",
            Self.pairing + ["--shard", "1/1", "--json", path("s.json"), "--evidence", path("ev")]
        )
        #expect(outcome.status == 1)
        let failing = try Self.tests(path("s.json")).filter { $0["verdict"] as? String == "fail" }
        let first = try #require(failing.first)
        let iterations = try #require(first["iterations"] as? [[String: Any]])
        let capture = try #require((iterations.first?["evidence"] as? [String: Any])?["capture"] as? String)
        try FileManager.default.removeItem(atPath: capture)

        let merged = try await CommandRunner.run("aware-conform", ["merge", path("s.json"), "--html", path("m.html")])
        #expect(merged.status == 1, "\(merged.standardError)")
        let findings = try HTMLJudge.judge(path("m.html"))
        let section = try #require(findings.sections.first { $0.id == first["id"] as? String })
        #expect(section.missing == 1 && section.arrows == 0)
        #expect(findings.text.contains("\(capture) is missing"))
        #expect(findings.sections.filter { $0.verdict == "fail" }.count == failing.count)

        try Data("{\"format\": \"aware-conform-report/1\", \"tests\": [".utf8).write(
            to: URL(fileURLWithPath: path("bad.json"))
        )
        let refused = try await CommandRunner.run(
            "aware-conform",
            ["merge", path("bad.json"), "--html", path("bad.html")]
        )
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("bad.json: not an aware-conform run report: not JSON"))
        #expect(!FileManager.default.fileExists(atPath: path("bad.html")))
    }

    /// The drone's realtime and bulk tests: the page draws the histograms the JSON report holds, and
    /// the report with them is valid against the schema.
    @Test func performanceTestsShowTheirLatencyHistogramsPerAccessCategory() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/PERF/BV-01", "--only", "WA/PERF/BV-02",
                "--json", path("r.json"), "--html", path("r.html"),
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
        let findings = try HTMLJudge.judge(path("r.html"))
        let tests = try Self.tests(path("r.json"))
        #expect(tests.count == 2)
        for test in tests {
            let id = test["id"] as? String ?? ""
            let iterations = try #require(test["iterations"] as? [[String: Any]])
            let latency = try #require(iterations.first?["latency"] as? [[String: Any]])
            let expected = latency.map { histogram in
                HTMLJudge.Findings.Histogram(
                    accessCategory: histogram["accessCategory"] as? String ?? "",
                    measure: histogram["measure"] as? String ?? "",
                    counts: (histogram["buckets"] as? [[String: Any]] ?? []).map { $0["count"] as? Int ?? -1 }
                )
            }
            #expect(expected.contains { $0.measure == "round-trip" && $0.counts.reduce(0, +) > 10 }, "\(id)")
            for (histogram, object) in zip(expected, latency) {
                #expect(histogram.counts.reduce(0, +) == object["samples"] as? Int, "\(id)")
            }
            let section = try #require(findings.sections.first { $0.id == id })
            #expect(section.histograms == expected, "\(id)")
        }
        // The drone's realtime service class is interactive video (Profiles/drone.json).
        let realtime = try #require(findings.sections.first { $0.id == "WA/PERF/BV-01" })
        #expect(realtime.histograms.first?.accessCategory == "AC_VI")

        let python = try #require(ExternalTool.pythonWithJSONSchema(), "\(ExternalTool.setupAdvice)")
        let validation = try ExternalTool.validateJSONSchema(
            python: python,
            schema: CommandRunner.repository.appendingPathComponent("docs/reference/report.schema.json").path,
            document: path("r.json")
        )
        #expect(validation.status == 0, "\(validation.errors)")
    }
}
