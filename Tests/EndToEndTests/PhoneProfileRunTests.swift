import AwareTestSupport
import Foundation
import Testing

/// Every shipped profile against the whole catalogue under each phone profile (docs/phones.md),
/// on the embedded target: the iPhone's and Android's ways (a new NMI for each connection, a
/// person who takes 10-60 s over the PIN, other NIK layouts, a 30 s search) cost virtual time
/// only. The report names the phone under `run.phone`.
@Suite struct PhoneProfileRunTests {
    static let cases: [(profile: String, phone: String)] = ["drone", "camera", "speaker"].flatMap { profile in
        ["iphone", "android"].map { (profile, $0) }
    }

    @Test(arguments: cases)
    func everyShippedProfilePassesItsCatalogueUnderThePhone(profile: String, phone: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-phone-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "run", "--profile", "Profiles/\(profile).json", "--phone", phone, "--jobs", "2", "--json", report,
                "--evidence", directory.appendingPathComponent("evidence").path,
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(3000))")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        )
        let run = try #require(object["run"] as? [String: Any])
        #expect(run["phone"] as? String == phone)
        let tests = try #require(object["tests"] as? [[String: Any]])
        let verdicts = Dictionary(
            uniqueKeysWithValues: tests.map { ($0["id"] as? String ?? "", $0["verdict"] as? String) }
        )
        #expect(verdicts["WA/RECON/BV-10"] == "pass")
        // Under a phone that draws a new NMI, every reconnect test really came back under one.
        let events = try String(
            contentsOfFile: directory.appendingPathComponent("evidence/WA_RECON_BV-01/events.jsonl").path,
            encoding: .utf8
        )
        #expect(events.contains("\"event\":\"phone_nmi_changed\""))
        // The person took their time over the PIN, within the profile's 10-60 s.
        let pinTimes = events.split(separator: "\n").filter { $0.contains("\"event\":\"pin_entry_time\"") }
        #expect(!pinTimes.isEmpty)
        for line in pinTimes {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let seconds = object?["seconds"] as? Int ?? -1
            #expect((10...60).contains(seconds), "\(line)")
        }
    }

    /// The faults of this tests that the drone cannot show, through the selftest on the
    /// speaker: it states a publish period (publishPeriodDWs 4) and offers both modes.
    @Test func theSpeakerShowsThePublishPeriodAndModeSwitchFaults() async throws {
        let faults = ["publish-period-slower", "mode-switch-refused", "mode-switch-any"]
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["selftest", "--profile", "Profiles/speaker.json", "--jobs", "2"] + faults.flatMap { ["--only-fault", $0] }
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput)")
        let lines = outcome.standardOutput.split(separator: "\n").filter { $0.contains("--fault") }
        #expect(lines.count == faults.count, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("ok") }, "\(lines)")
    }
}
