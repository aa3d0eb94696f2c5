import Foundation
import Testing

@testable import ConformanceKit

/// `RunReportMerge` and `RunReportParser`: shards of synthetic runs go through their JSON reports and
/// back, merge into the unsharded run, and reports of different runs are refused with exact messages.
@Suite struct RunReportMergeTests {
    /// A run of the mixed synthetic catalogue (every verdict), read back from its JSON report.
    static func report(
        _ file: String,
        seed: UInt64 = 42,
        shard: String? = nil,
        skip: [String] = []
    ) throws -> RunReportMerge.Input {
        let run = try TestRunner(
            catalogue: Synthetic.mixedCatalogue(),
            configuration: Synthetic.configuration(seed: seed, skip: skip, shard: try shard.map { try Shard($0) })
        ).run()
        return RunReportMerge.Input(
            file: file,
            run: try RunReportParser.parse(Data(JSONReport.render(run).utf8), file: file)
        )
    }

    static func parse(_ text: String, file: String = "c.json") -> RunReportMergeError? {
        do {
            _ = try RunReportParser.parse(Data(text.utf8), file: file)
            return nil
        } catch {
            return error
        }
    }

    /// The `tests` array of a JSON report, as Foundation reads it.
    static func tests(_ text: String) throws -> NSArray {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        return try #require(object["tests"] as? NSArray)
    }

    @Test func aReportReadBackRendersTheSameTests() throws {
        let run = try ReportJUnitTests.mixedRun()
        let text = JSONReport.render(run)
        let parsed = try RunReportParser.parse(Data(text.utf8), file: "a.json")
        #expect(try Self.tests(JSONReport.render(parsed)) == Self.tests(text))
        #expect(parsed.metadata.baseSeed == 42)
        #expect(parsed.metadata.runID == "test-run")
        #expect(parsed.exitCode == run.exitCode)
        #expect(JUnitReport.render(parsed).components(separatedBy: "<testcase ").count == run.tests.count + 1)
    }

    @Test func threeShardsMergeIntoTheUnshardedRun() throws {
        let whole = try Self.report("all.json").run
        let merge = try RunReportMerge([
            try Self.report("s2.json", shard: "2/3"), try Self.report("s1.json", shard: "1/3"),
            try Self.report("s3.json", shard: "3/3"),
        ])
        #expect(merge.missingShards.isEmpty)
        #expect(merge.result.problems.isEmpty)
        #expect(merge.result.tests.map(\.id) == whole.tests.map(\.id))
        #expect(merge.result.tests.map(\.verdict) == whole.tests.map(\.verdict))
        #expect(merge.result.tests.map(\.seed) == whole.tests.map(\.seed))
        #expect(merge.result.exitCode == whole.exitCode)
        #expect(merge.result.metadata.shard == nil)
        #expect(merge.result.metadata.runID == "test-run-merged")
        let summary = ConsoleFormatter().summary(merge.result)
        let allRow = summary.split(separator: "\n").first { $0.hasPrefix("all ") }
        let counts = [whole.tests.count] + TestVerdict.allCases.map { whole.count($0) }
        #expect(allRow?.split(separator: " ").map(String.init) == ["all"] + counts.map(String.init))
    }

    @Test func aMissingShardFailsTheMergeAndTheRestIsMerged() throws {
        let first = try Self.report("s1.json", shard: "1/3")
        let merge = try RunReportMerge([first, try Self.report("s3.json", shard: "3/3")])
        #expect(merge.missingShards == ["shard 2/3 is missing: its tests are not in the merged report"])
        #expect(merge.result.problems == merge.missingShards)
        #expect(merge.result.exitCode == .environmentError)
        #expect(merge.result.tests.prefix(1).map(\.id) == first.run.tests.prefix(1).map(\.id))
    }

    @Test func overlappingShardsNameTheTestAndBothFiles() throws {
        let first = try Self.report("a.json", shard: "1/2")
        var second = first
        second.file = "b.json"
        second.run.metadata.shard = try Shard("2/2")
        let id = try #require(first.run.tests.first?.id.description)
        #expect(throws: RunReportMergeError.duplicateTest(file: "b.json", test: id, other: "a.json")) {
            try RunReportMerge([first, second])
        }
        #expect(
            RunReportMergeError.duplicateTest(file: "b.json", test: id, other: "a.json").description
                == "b.json: test \(id) is also in a.json"
        )
    }

    @Test func mismatchedSeedsAreRefused() throws {
        let error = RunReportMergeError.mismatch(
            file: "b.json",
            field: "run.seed",
            value: "7",
            reference: "a.json",
            referenceValue: "42"
        )
        #expect(throws: error) {
            try RunReportMerge([
                try Self.report("a.json", shard: "1/2"), try Self.report("b.json", seed: 7, shard: "2/2"),
            ])
        }
        #expect(error.description == "b.json: run.seed is 7 but 42 in a.json: shards of one run share it")
    }

    @Test func shardsOfDifferentSplitsOrSelectionsOrTwiceTheSameShardAreRefused() throws {
        let first = try Self.report("a.json", shard: "1/2")
        #expect(
            throws: RunReportMergeError.mismatch(
                file: "b.json",
                field: "run.shard",
                value: "2/3",
                reference: "a.json",
                referenceValue: "1/2"
            )
        ) { try RunReportMerge([first, try Self.report("b.json", shard: "2/3")]) }
        #expect(
            throws: RunReportMergeError.mismatch(
                file: "b.json",
                field: "run.skip",
                value: "[*BI*]",
                reference: "a.json",
                referenceValue: "[]"
            )
        ) { try RunReportMerge([first, try Self.report("b.json", shard: "2/2", skip: ["*BI*"])]) }
        var again = first
        again.file = "b.json"
        #expect(throws: RunReportMergeError.duplicateShard(file: "b.json", shard: "1/2", other: "a.json")) {
            try RunReportMerge([first, again])
        }
        #expect(throws: RunReportMergeError.notAShard(file: "all.json")) {
            try RunReportMerge([first, try Self.report("all.json")])
        }
        #expect(throws: RunReportMergeError.noReports) { try RunReportMerge([]) }
    }

    @Test func shardsThatSwappedTheirPlacesAreRefused() throws {
        var first = try Self.report("a.json", shard: "1/2")
        var second = try Self.report("b.json", shard: "2/2")
        first.run.metadata.shard = try Shard("2/2")
        second.run.metadata.shard = try Shard("1/2")
        let id = try #require(first.run.tests.first?.id.description)
        #expect(throws: RunReportMergeError.misplacedTest(file: "a.json", test: id, owner: "1/2")) {
            try RunReportMerge([first, second])
        }
    }

    @Test func malformedReportsNameTheFileAndTheKey() throws {
        #expect(
            Self.parse("{\"format\": ")
                == .notAReport(
                    file: "c.json",
                    reason: "not JSON at line 1, column 12: unexpected end of file; a value is missing"
                )
        )
        #expect(Self.parse("[1]") == .notAReport(file: "c.json", reason: "the document is not a JSON object"))
        #expect(
            Self.parse("{\"format\": \"other/1\"}")
                == .notAReport(file: "c.json", reason: "format is \"other/1\", expected \"aware-conform-report/1\"")
        )
        let valid = JSONReport.render(try ReportJUnitTests.mixedRun())
        var object = try #require(try JSONSerialization.jsonObject(with: Data(valid.utf8)) as? [String: Any])
        object["tests"] = nil
        let withoutTests = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let missing = try #require(Self.parse(withoutTests))
        #expect(missing == .notAReport(file: "c.json", reason: "missing key tests"))
        #expect(missing.description == "c.json: not an aware-conform run report: missing key tests")
        #expect(
            Self.parse(valid.replacingOccurrences(of: "\"seed\": \"42\"", with: "\"seed\": \"forty-two\""))
                == .notAReport(file: "c.json", reason: "key run.seed is not a 64-bit seed in decimal")
        )
        #expect(
            Self.parse(valid.replacingOccurrences(of: "\"verdict\": \"fail\"", with: "\"verdict\": \"fine\""))
                == .notAReport(file: "c.json", reason: "key tests[0].verdict is \"fine\", not a verdict")
        )
        #expect(
            Self.parse(valid.replacingOccurrences(of: "\"jobs\": 1", with: "\"jobs\": \"one\""))
                == .notAReport(file: "c.json", reason: "key run.jobs is not an integer of at least 1")
        )
    }

    @Test func aMissingFileIsUnreadable() throws {
        let path = Synthetic.temporaryDirectory() + "/absent.json"
        #expect(throws: RunReportMergeError.unreadable(file: path, reason: "no such file")) {
            try RunReportMerge(files: [path])
        }
        #expect(
            RunReportMergeError.unreadable(file: "d.json", reason: "no such file").description
                == "d.json: cannot read: no such file"
        )
    }
}
