import Foundation
import Testing

/// The pairing and reconnect groups through the real `aware-conform` and `accessory-emu`
/// programs: they pass against the drone, each pairing fault fails exactly its tests, and the
/// restart tests run against a real process restart on the spawn target.
@Suite struct PairingRunTests {
    static func report(_ arguments: [String]) async throws -> (status: Int32, tests: [[String: Any]], output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-e2e-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.json").path
        let outcome = try await CommandRunner.run("aware-conform", arguments + ["--json", path])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        return (outcome.status, try #require(object["tests"] as? [[String: Any]]), outcome.standardOutput)
    }

    static func verdicts(_ tests: [[String: Any]]) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: tests.compactMap { test in
                (test["id"] as? String).map { ($0, test["verdict"] as? String ?? "") }
            }
        )
    }

    @Test func theDroneProfilePassesThePairingAndReconnectGroupsOnTheEmbeddedTarget() async throws {
        let run = try await Self.report([
            "run", "--profile", "Profiles/drone.json", "--only", "WA/PAIR/*", "--only", "WA/RECON/*", "--seed", "3",
        ])
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let verdicts = Self.verdicts(run.tests)
        #expect(verdicts.count >= 20)
        #expect(verdicts.values.allSatisfy { $0 == "pass" }, "\(verdicts.filter { $0.value != "pass" })")
        #expect(verdicts.keys.filter { $0.hasPrefix("WA/RECON/") }.count >= 8)
    }

    @Test(arguments: [
        ("log-pin", ["WA/PAIR/BV-02"]),
        ("accept-wrong-cookie", ["WA/PAIR/BI-08"]),
        ("no-replay-check", ["WA/PAIR/BI-13"]),
        ("skip-frame3-mic", ["WA/RECON/BI-07"]),
        ("keys-survive-reset", ["WA/RECON/BI-06"]),
        // WA/RECON/BV-12: the same restart with the accessory as the subscriber (the reverse role).
        ("forget-keys-on-restart", ["WA/RECON/BV-03", "WA/RECON/BV-05", "WA/RECON/BV-12"]),
    ])
    func aPairingFaultFailsExactlyItsTests(fault: String, failing: [String]) async throws {
        let run = try await Self.report([
            "run", "--profile", "Profiles/drone.json", "--only", "WA/PAIR/*", "--only", "WA/RECON/*", "--fault", fault,
        ])
        #expect(run.status == 1)
        let failed = Self.verdicts(run.tests).filter { $0.value == "fail" }.keys.sorted()
        #expect(failed == failing.sorted(), "\(fault)")
    }

    @Test func theSelftestChecksThePairingFaults() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "selftest", "--profile", "Profiles/drone.json", "--only-fault", "no-lockout", "--only-fault",
                "nik-without-caching", "--only-fault", "stale-nira-tag",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("ok   --fault no-lockout: 3 failing, 3 expected"))
        #expect(outcome.standardOutput.contains("ok   --fault nik-without-caching: 3 failing, 3 expected"))
        #expect(outcome.standardOutput.hasSuffix("selftest passed\n"))
    }

    @Test func aRealProcessRestartKeepsThePairingAndRotatesTheNIRA() async throws {
        let run = try await Self.report([
            "run", "--target", "spawn", "--profile", "Profiles/drone.json", "--only", "WA/RECON/BV-03", "--only",
            "WA/RECON/BV-05", "--only", "WA/RECON/BI-06",
        ])
        let verdicts = Self.verdicts(run.tests)
        #expect(Set(verdicts.keys) == ["WA/RECON/BV-03", "WA/RECON/BV-05", "WA/RECON/BI-06"])
        #expect(!verdicts.values.contains("skip"), "spawn restarts the accessory for real: nothing is skipped")
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        #expect(verdicts.values.allSatisfy { $0 == "pass" }, "\(verdicts)")
    }

    @Test func listShowsThePairingGroupsAndWhyTheyDoNotApply() async throws {
        let drone = try await CommandRunner.run("aware-conform", ["list", "--profile", "Profiles/drone.json"])
        #expect(drone.status == 0)
        #expect(drone.standardOutput.contains("WA/PAIR/BV-01"))
        #expect(drone.standardOutput.contains("WA/RECON/BV-05"))
        let minimal = try await CommandRunner.run(
            "aware-conform",
            ["list", "--profile", "Fixtures/profiles/good/minimal.json"]
        )
        #expect(minimal.standardOutput.contains("WA/RECON/BV-01"))
        #expect(minimal.standardOutput.contains("the profile does not offer pairing"))
    }
}
