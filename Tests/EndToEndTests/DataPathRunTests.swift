import AwareTestSupport
import Foundation
import Testing

/// The data-path and performance groups through the real `aware-conform` program: they pass
/// against the drone and the camera, every file fault fails exactly its tests on a camera, and
/// tshark reads the data path of a run's capture: NDP NAFs and protected QoS data frames.
@Suite struct DataPathRunTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-ndp-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The camera profile with a random PIN instead of its fixed one: the pairing suite's
    /// "a new PIN per attempt" test would otherwise fail with every fault.
    static func cameraWithRandomPIN(in directory: URL) throws -> String {
        try rewrite("camera", as: "camera.json", in: directory) { object in
            var pairing = try #require(object["pairing"] as? [String: Any])
            var pin = try #require(pairing["pin"] as? [String: Any])
            pin["fixed"] = nil
            pairing["pin"] = pin
            object["pairing"] = pairing
        }
    }

    /// Profiles/`profile`.json changed by `edit`, written to `directory`/`name`; its path.
    static func rewrite(
        _ profile: String,
        as name: String,
        in directory: URL,
        _ edit: (inout [String: Any]) throws -> Void
    ) throws -> String {
        let source = URL(fileURLWithPath: "Profiles/\(profile).json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        object["$schema"] = nil
        try edit(&object)
        let path = directory.appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: ["drone", "camera", "speaker"])
    func theProfilePassesTheDataPathGroupsOnTheEmbeddedTarget(profile: String) async throws {
        let run = try await PairingRunTests.report([
            "run", "--profile", "Profiles/\(profile).json", "--only", "WA/NDP/*", "--only", "WA/PERF/*", "--seed", "4",
        ])
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let verdicts = PairingRunTests.verdicts(run.tests)
        #expect(verdicts.count == 29)
        #expect(!verdicts.values.contains("fail"), "\(verdicts.filter { $0.value == "fail" })")
        // The drone offers realtime but no file service; the camera the other way round (so no
        // mode to switch to, WA/PERF/BV-07); the speaker (realtime by default) no file service
        // either. The drone and the speaker serve eight phones at once, too many for the
        // one-too-many test; the camera serves one, too few for two phones at once. The speaker
        // subscribes to nothing, so it opens no data path of its own (WA/NDP/BV-15).
        let skipped = verdicts.filter { $0.value == "skip" }.keys.sorted()
        var expected =
            profile == "camera"
            ? ["WA/PERF/BI-01", "WA/PERF/BV-01", "WA/NDP/BV-05", "WA/PERF/BV-07"]
            : ["WA/PERF/BV-05", "WA/PERF/BV-06", "WA/NDP/BI-03"]
        if profile == "speaker" { expected.append("WA/NDP/BV-15") }
        #expect(skipped == expected.sorted())
    }

    /// `profile` as a device maker would write it: without `app.benchProtocol`, so that neither
    /// side speaks the bench's own application protocol.
    static func withoutBenchProtocol(_ profile: String, in directory: URL) throws -> String {
        try rewrite(profile, as: "\(profile)-standard.json", in: directory) { object in
            var app = try #require(object["app"] as? [String: Any])
            app["benchProtocol"] = nil
            object["app"] = app
        }
    }

    /// Issue 19: against an accessory without the bench's protocol no data-path verdict fails for
    /// its absence. The verdicts that need it (the accessory's own report, file transfers) skip
    /// naming `app.benchProtocol`; the TID test skips where the profile describes no traffic of
    /// the accessory's own; everything else runs on standard traffic and passes.
    @Test(arguments: ["drone", "camera", "speaker"])
    func withoutTheBenchProtocolNoDataPathTestFailsForItsAbsence(profile: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.withoutBenchProtocol(profile, in: directory)
        let run = try await PairingRunTests.report([
            "run", "--profile", path, "--only", "WA/NDP/*", "--only", "WA/PERF/*", "--seed", "4",
        ])
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        let verdicts = PairingRunTests.verdicts(run.tests)
        #expect(verdicts.count == 29)
        #expect(!verdicts.values.contains("fail"), "\(verdicts.filter { $0.value == "fail" })")
        let skipped = Set(verdicts.filter { $0.value == "skip" }.keys)
        var premises: Set<String> =
            profile == "camera"
            ? ["WA/PERF/BI-01", "WA/PERF/BV-01", "WA/NDP/BV-05", "WA/PERF/BV-07"]
            : ["WA/PERF/BV-05", "WA/PERF/BV-06", "WA/NDP/BI-03"]
        if profile == "speaker" { premises.insert("WA/NDP/BV-15") }
        // Only the drone's profile describes traffic of its own (telemetry on its data service).
        // Two connections in chosen categories need the protocol's stream requests (WA/PERF/BV-08).
        var needsProtocol: Set<String> = ["WA/PERF/BV-03", "WA/PERF/BV-08"]
        if profile == "camera" { needsProtocol.formUnion(["WA/PERF/BV-05", "WA/PERF/BV-06"]) }
        if profile != "drone" { needsProtocol.insert("WA/PERF/BV-04") }
        #expect(skipped == premises.union(needsProtocol))
        let reasons = Dictionary(
            uniqueKeysWithValues: run.tests.compactMap { test in
                (test["id"] as? String).map { ($0, test["reason"] as? String ?? "") }
            }
        )
        #expect(reasons["WA/PERF/BV-03"]?.contains("app.benchProtocol") == true, "\(reasons["WA/PERF/BV-03"] ?? "")")
    }

    @Test func theFileAndTCPFaultsFailExactlyTheirTestsOnACamera() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = try Self.cameraWithRandomPIN(in: directory)
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "selftest", "--profile", profile, "--only-fault", "file-corrupt-chunk", "--only-fault",
                "file-no-resume", "--only-fault", "ndp-single-peer", "--only-fault", "tcp-port-closed", "--jobs", "2",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(3000))")
        #expect(outcome.standardOutput.contains("ok   --fault file-corrupt-chunk: 2 failing, 2 expected"))
        #expect(outcome.standardOutput.contains("ok   --fault file-no-resume: 1 failing, 1 expected"))
        // The camera's data service is _cam-stream._tcp: no listener, and WA/NDP/BV-01 and BV-12 fail.
        #expect(outcome.standardOutput.contains("ok   --fault tcp-port-closed: 2 failing, 2 expected"))
    }

    /// The transport faults through the real program: each fails WA/NDP/BV-12 and nothing else,
    /// the clean drone passes it (the selftest's "no fault" line), and the drone's contract is the
    /// recorded matrix (its first line).
    @Test func theTransportFaultsFailExactlyTheTransportTest() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "selftest", "--profile", "Profiles/drone.json", "--only-fault", "ndp-no-transport-info",
                "--only-fault", "ndp-wrong-transport-protocol", "--jobs", "2",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(3000))")
        #expect(
            outcome.standardOutput.hasPrefix(
                "contract: the expected failures equal the recorded matrix Fixtures/selftest/drone-matrix.json ("
            )
        )
        let clean = outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("no fault:") }
        #expect(clean?.hasSuffix(" applicable tests, 0 failing") == true, "\(String(describing: clean))")
        #expect(outcome.standardOutput.contains("ok   --fault ndp-no-transport-info: 1 failing, 1 expected"))
        #expect(outcome.standardOutput.contains("ok   --fault ndp-wrong-transport-protocol: 1 failing, 1 expected"))
        #expect(outcome.standardOutput.hasSuffix("selftest passed\n"))
    }

    @Test func tsharkReadsTheDataPathOfARunsCapture() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let evidence = directory.appendingPathComponent("evidence").path
        let run = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/drone.json", "--only", "WA/NDP/BV-04", "--only", "WA/NDP/BI-01",
                "--evidence", evidence,
            ]
        )
        #expect(run.status == 0, "\(run.standardOutput.suffix(1500))")
        // A paired data path: QoS data frames between the NDIs, every one protected.
        let paired = evidence + "/WA_NDP_BV-04/capture.pcap"
        let data = try ExternalTool.tshark([
            "-r", paired, "-Y", "wlan.fc.type_subtype == 0x0028", "-T", "fields", "-e", "wlan.fc.protected",
        ])
        let flags = data.output.split(separator: "\n")
        #expect(flags.count > 20, "QoS data frames in the capture: \(flags.count)")
        #expect(
            flags.allSatisfy { $0 == "1" || $0 == "True" },
            "unprotected data frames: \(flags.filter { $0 != "1" })"
        )
        // The unpaired phone's request travels in the clear (category 4): tshark reads the
        // accessory's Data Path Response as NDPE type Response, status Rejected, reason 8.
        let refused = evidence + "/WA_NDP_BI-01/capture.pcap"
        let response = try ExternalTool.tshark([
            "-r", refused, "-Y", "nan.action.subtype == 6", "-T", "fields", "-e", "nan.ndp.type", "-e",
            "nan.status", "-e", "nan.reason_code",
        ])
        let answers = Set(response.output.split(separator: "\n").map(String.init))
        #expect(answers == ["1\t2\t8"], "tshark's reading of the Data Path Response: \(answers)")
        let requests = try ExternalTool.tshark(["-r", refused, "-Y", "nan.action.subtype == 5"])
        #expect(!requests.output.isEmpty, "tshark found no Data Path Request")
        for capture in [paired, refused] {
            let malformed = try ExternalTool.tshark(["-r", capture, "-Y", "_ws.malformed"])
            #expect(malformed.output.isEmpty, "malformed frames in \(capture):\n\(malformed.output.prefix(2000))")
        }
    }
}
