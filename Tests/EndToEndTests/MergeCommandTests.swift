import AwareTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `aware-conform merge` through the real program: the shards of the drone's discovery groups merge
/// into exactly the unsharded run, in the `run --json` schema and as JUnit XML.
@Suite struct MergeCommandTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-merge-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func document(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
    }

    /// `[(id, verdict)]` in report order.
    static func verdicts(_ document: [String: Any]) throws -> [[String]] {
        try #require(document["tests"] as? [[String: Any]]).map { test in
            [test["id"] as? String ?? "", test["verdict"] as? String ?? ""]
        }
    }

    static let selection = ["run", "--profile", "Profiles/drone.json", "--only", "WA/DISC/*", "--seed", "5"]

    /// Once as the drone is (every test passes), once with a fault that fails some tests (exit 1).
    @Test(arguments: [[], ["--fault", "ignore-match-filter"]])
    func theUnionOfThreeShardsEqualsTheUnshardedRun(fault: [String]) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let whole = try await CommandRunner.run(
            "aware-conform",
            Self.selection + fault + ["--json", path("all.json"), "--evidence", path("all")]
        )
        #expect(whole.status == (fault.isEmpty ? 0 : 1), "\(whole.standardOutput.suffix(1500))")
        var shards: [String] = []
        for index in 1...3 {
            let shard = path("shard-\(index).json")
            let outcome = try await CommandRunner.run(
                "aware-conform",
                Self.selection + fault + [
                    "--shard", "\(index)/3", "--json", shard, "--evidence", path("shard-\(index)"),
                ]
            )
            #expect(outcome.status <= 1, "\(outcome.standardOutput.suffix(1500))")
            shards.append(shard)
        }
        let merged = try await CommandRunner.run(
            "aware-conform",
            ["merge"] + shards.reversed() + ["--json", path("merged.json"), "--junit", path("merged.xml")]
        )
        #expect(merged.status == whole.status, "\(merged.standardError)")
        #expect(merged.standardError.isEmpty)

        let expected = try Self.verdicts(try Self.document(path("all.json")))
        let document = try Self.document(path("merged.json"))
        #expect(expected.count >= 20)
        #expect(try Self.verdicts(document) == expected)
        let shardCounts = try shards.map { try Self.verdicts(try Self.document($0)).count }
        #expect(shardCounts.allSatisfy { $0 > 0 && $0 < expected.count })
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == expected.count)
        #expect(summary["pass"] as? Int == expected.count { $0[1] == "pass" })
        #expect(summary["fail"] as? Int == expected.count { $0[1] == "fail" })
        #expect(summary["exitCode"] as? Int == Int(whole.status))
        let run = try #require(document["run"] as? [String: Any])
        #expect(run["shard"] is NSNull)
        #expect(run["seed"] as? String == "5")

        let python = try #require(
            ExternalTool.pythonWithJSONSchema(),
            "no python3 with jsonschema: \(ExternalTool.setupAdvice)"
        )
        let validation = try ExternalTool.validateJSONSchema(
            python: python,
            schema: CommandRunner.repository.appendingPathComponent("docs/reference/report.schema.json").path,
            document: path("merged.json")
        )
        #expect(validation.status == 0, "\(validation.errors)")

        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path("merged.xml"))))
        let counter = TestcaseCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.names == expected.map { $0[0] })
        #expect(counter.totals == String(expected.count))
    }

    @Test func withoutOutputsItPrintsTheSummaryAndAMissingShardFailsTheMerge() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.json").path
        let outcome = try await CommandRunner.run(
            "aware-conform",
            Self.selection + ["--shard", "1/2", "--json", first]
        )
        #expect(outcome.status == 0)
        let merged = try await CommandRunner.run("aware-conform", ["merge", first])
        // A lost CI artifact fails the merge: exit 3, never PASSED on half the tests.
        #expect(merged.status == 3)
        #expect(merged.standardOutput.contains("group "))
        #expect(!merged.standardOutput.contains("PASSED"))
        #expect(
            merged.standardError
                == "aware-conform merge: error: shard 2/2 is missing: its tests are not in the merged report\n"
        )
    }

    @Test func inputThatIsNotAReportExitsTwoNamingTheFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("c.json").path
        try "{\"format\": \"aware-conform-report/1\"}".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = try await CommandRunner.run("aware-conform", ["merge", bad])
        #expect(malformed.status == 2)
        #expect(
            malformed.standardError
                == "aware-conform merge: \(bad): not an aware-conform run report: missing key tool\n"
        )
        let absent = directory.appendingPathComponent("absent.json").path
        let missing = try await CommandRunner.run("aware-conform", ["merge", absent])
        #expect(missing.status == 2)
        #expect(missing.standardError == "aware-conform merge: \(absent): cannot read: no such file\n")
    }

    /// The `name` of every `<testcase>` and the `tests` of `<testsuites>`.
    final class TestcaseCounter: NSObject, XMLParserDelegate {
        var names: [String] = []
        var totals: String?

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if elementName == "testcase" { names.append(attributes["name"] ?? "") }
            if elementName == "testsuites" { totals = attributes["tests"] }
        }
    }
}
