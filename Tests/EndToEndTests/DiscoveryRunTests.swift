import AwareTestSupport
import Foundation
import Testing

/// The discovery group through the real `aware-conform` and `accessory-emu` programs.
@Suite struct DiscoveryRunTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-e2e-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theDroneProfilePassesTheDiscoveryGroupOnTheEmbeddedTarget() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        let junit = directory.appendingPathComponent("junit.xml").path
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/DISC/*", "--json", report, "--junit", junit,
                "--seed", "5",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(2000))")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        )
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.count >= 25)
        // The drone states no publish period (publishPeriodDWs): the test of one skips.
        let verdicts = Dictionary(
            uniqueKeysWithValues: tests.map { ($0["id"] as? String ?? "", $0["verdict"] as? String) }
        )
        #expect(verdicts.filter { $0.value != "pass" } == ["WA/DISC/PUB/BV-07": "skip"], "\(verdicts)")
        #expect(Set(tests.compactMap { $0["id"] as? String }).count == tests.count)
        // JUnit: testcase name is the stable ID and classname its group.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        for test in tests {
            let id = try #require(test["id"] as? String)
            #expect(xml.contains("<testcase name=\"\(id)\" classname=\"WA/DISC\""))
        }
    }

    @Test func theReportFollowsItsSchema() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        _ = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/speaker.json", "--only", "WA/DISC/PUB/*", "--json", report]
        )
        let python = try #require(
            ExternalTool.pythonWithJSONSchema(),
            "no python3 with jsonschema: \(ExternalTool.setupAdvice)"
        )
        let outcome = try ExternalTool.validateJSONSchema(
            python: python,
            schema: CommandRunner.repository.appendingPathComponent("docs/reference/report.schema.json").path,
            document: report
        )
        #expect(outcome.status == 0, "\(outcome.errors)")
    }

    @Test func theSameSeedGivesTheSameReportAndTheSameCaptures() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ name: String) async throws -> (report: [String: Any], evidence: URL) {
            let evidence = directory.appendingPathComponent(name)
            let report = directory.appendingPathComponent("\(name).json").path
            let outcome = try await CommandRunner.run(
                "aware-conform",
                [
                    "run", "--profile", "Profiles/drone.json", "--seed", "42", "--only", "WA/DISC/MF/*", "--only",
                    "WA/DISC/SYNC/*", "--json", report, "--evidence", evidence.path,
                ]
            )
            #expect(outcome.status == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            )
            return (object, evidence)
        }
        let first = try await run("a")
        let second = try await run("b")
        // Timestamps, run IDs, wall times and paths aside, the reports are the same.
        #expect(Self.comparable(first.report["tests"]) == Self.comparable(second.report["tests"]))
        let testDirectories = try FileManager.default.contentsOfDirectory(atPath: first.evidence.path).sorted()
        #expect(testDirectories.count == 3)
        for name in testDirectories {
            let a = try Data(
                contentsOf: first.evidence.appendingPathComponent(name).appendingPathComponent("capture.pcap")
            )
            let b = try Data(
                contentsOf: second.evidence.appendingPathComponent(name).appendingPathComponent("capture.pcap")
            )
            #expect(a.count > 1_000)
            #expect(a == b, "\(name): the same seed must give the same pcap bytes")
        }
    }

    /// The report with what legitimately differs between runs taken out.
    static func comparable(_ value: Any?) -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                var kept: [String: Any] = [:]
                for (key, child) in object
                where !["wallSeconds", "evidenceDirectory", "evidence", "startedAt", "finishedAt", "id"].contains(key)
                    || (key == "id" && child is String && (child as! String).hasPrefix("WA/"))
                {
                    kept[key] = strip(child)
                }
                return kept
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        guard let value,
            let data = try? JSONSerialization.data(withJSONObject: strip(value), options: [.sortedKeys])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The discovery faults through the real program: each must break exactly the tests that
    /// check its behaviour. The whole selftest (every fault of the drone, about 3,800 catalogue
    /// tests) is a step of .ci/run of its own: run here it held one of the test pool's threads for
    /// most of the suite's wall time.
    @Test func theSelftestProvesDiscoveryTestsCanFail() async throws {
        let faults = [
            "ignore-match-filter", "ignore-srf", "no-solicited-reply", "wrong-service-id", "missing-pairing-name",
            "ignore-ttl", "answer-any-service", "long-txt-value",
        ]
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["selftest", "--profile", "Profiles/drone.json", "--jobs", "2"] + faults.flatMap { ["--only-fault", $0] }
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.hasSuffix("selftest passed\n"))
        let faultLines = outcome.standardOutput.split(separator: "\n").filter { $0.contains("--fault") }
        #expect(faultLines.count == faults.count, "\(faultLines)")
        #expect(faultLines.allSatisfy { $0.hasPrefix("ok") }, "\(faultLines)")
        for fault in faults {
            #expect(faultLines.contains { $0.contains("--fault \(fault):") }, "no line for \(fault)")
        }
    }

    @Test func listShowsApplicabilityWithTheReason() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["list", "--profile", "Fixtures/profiles/good/minimal.json"]
        )
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("WA/DISC/MF/BV-01"))
        #expect(outcome.standardOutput.contains("the profile does not offer pairing"))
    }

    @Test func aMissingProfileIsAUsageError() async throws {
        let outcome = try await CommandRunner.run("aware-conform", ["run"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--profile"))
    }

    @Test func discoverFindsTheEmbeddedDroneAndShowsItsTXTRecord() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "discover", "--profile", "Profiles/drone.json", "--vendor", "Example Inc", "--model", "Example Model",
                "--json",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        )
        let found = try #require(object["found"] as? [[String: Any]])
        let drone = try #require(found.first)
        #expect(drone["offered"] as? Bool == true)
        #expect(drone["pairingName"] as? String == "My Drone")
        let txt = try #require(drone["txt"] as? [String: String])
        #expect(txt["vendorName"] == "Example Inc")
        #expect(txt["modelName"] == "Example Model")
    }

    @Test func discoverExitsOneWhenNothingMatchesTheDescriptor() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["discover", "--profile", "Profiles/drone.json", "--vendor", "EXAMPLE INC", "--timeout", "4"]
        )
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("not offered: vendorName \"Example Inc\" does not match"))
    }
}
