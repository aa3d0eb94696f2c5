import AwareTestSupport
import Foundation
import Testing

/// `aware-conform analyze` on captures the bench writes (`aware-conform run --evidence`): a
/// healthy accessory gives no error findings; each fault gives exactly its rule, at exactly the
/// frames tshark selects with a filter written from the rule's definition.
@Suite(.serialized) struct AnalyzeCommandTests {
    static let profile = "Profiles/drone.json"

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "analyze-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `tests` (with `fault`, if any) and returns the directory with one capture per test.
    static func evidence(_ tests: [String], fault: String? = nil, in directory: URL) async throws -> String {
        let evidence = directory.appendingPathComponent("evidence-\(fault ?? "healthy")").path
        var arguments = ["run", "--profile", profile, "--evidence", evidence]
        for test in tests { arguments += ["--only", test] }
        if let fault { arguments += ["--fault", fault] }
        _ = try await CommandRunner.run("aware-conform", arguments)
        return evidence
    }

    /// The capture of `test` in an evidence directory.
    static func capture(_ evidence: String, _ test: String) -> String {
        evidence + "/" + test.replacingOccurrences(of: "/", with: "_") + "/capture.pcap"
    }

    /// The frame numbers tshark selects with `filter`.
    static func tsharkFrames(_ capture: String, _ filter: String) throws -> [Int] {
        let outcome = try ExternalTool.tshark(["-r", capture, "-Y", filter, "-T", "fields", "-e", "frame.number"])
        #expect(outcome.status == 0, "tshark: \(outcome.errors)")
        return outcome.output.split(separator: "\n").compactMap { Int($0) }
    }

    /// The accessory's NMI, as tshark reads it: the transmitter of the Publish SDFs.
    static func accessoryNMI(_ capture: String) throws -> String {
        let outcome = try ExternalTool.tshark([
            "-r", capture, "-Y", "nan.sda.sc.type == 0", "-T", "fields", "-e", "wlan.ta",
        ])
        return try #require(outcome.output.split(separator: "\n").first.map(String.init))
    }

    struct Report {
        var status: Int32
        var object: [String: Any]
        var findings: [[String: Any]] { object["findings"] as? [[String: Any]] ?? [] }
        var errors: Int { (object["summary"] as? [String: Any])?["errors"] as? Int ?? -1 }
        /// Frame numbers of `rule`'s findings.
        func frames(_ rule: String) -> [Int] {
            findings.filter { $0["rule"] as? String == rule }.compactMap { $0["frame"] as? Int }
        }
        /// The rules with findings of error severity.
        var errorRules: Set<String> {
            Set(findings.filter { $0["severity"] as? String == "error" }.compactMap { $0["rule"] as? String })
        }
    }

    static func analyze(_ capture: String, _ extra: [String] = []) async throws -> Report {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["analyze", capture, "--profile", profile, "--json"] + extra
        )
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
            "not one JSON object: \(outcome.standardOutput.prefix(300)) \(outcome.standardError)"
        )
        return Report(status: outcome.status, object: object)
    }

    @Test func aHealthyAccessorysCapturesHaveNoErrorFindings() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tests = ["WA/DISC/TXT/BV-01", "WA/PAIR/BV-11", "WA/RECON/BV-04", "WA/NDP/BV-04", "WA/PERF/BV-01"]
        let evidence = try await Self.evidence(tests, in: directory)
        for test in tests {
            let capture = Self.capture(evidence, test)
            let nmi = try Self.accessoryNMI(capture)
            let report = try await Self.analyze(capture, ["--device", nmi])
            #expect(report.status == 0, "\(test): \(report.findings)")
            #expect(report.errors == 0, "\(test): \(report.findings)")
            // The data stream of the performance test is steady, not in discovery-window bursts.
            #expect(report.frames("WA/CAP/DATA-DW-01").isEmpty, "\(test)")
        }
    }

    @Test func aWrongServiceIDIsFoundAtEveryPublishTsharkShowsWithAnotherID() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = Self.capture(
            try await Self.evidence(["WA/PAIR/BV-11"], fault: "wrong-service-id", in: directory),
            "WA/PAIR/BV-11"
        )
        let nmi = try Self.accessoryNMI(capture)
        let report = try await Self.analyze(capture, ["--device", nmi])
        #expect(report.status == 1)
        #expect(report.errorRules == ["WA/CAP/SID-01"])
        // SHA-256("_drone-service._udp")[0..5] = 3425f17bda31 (Fixtures/hostap-session-A/README.md).
        let expected = try Self.tsharkFrames(
            capture,
            "nan.sda.sc.type == 0 && wlan.ta == \(nmi) && nan.service_id != 34:25:f1:7b:da:31 && wlan.fc.retry == 0"
        )
        #expect(!expected.isEmpty)
        #expect(report.frames("WA/CAP/SID-01") == expected)
    }

    @Test func aLongTXTValueIsFoundAtEveryReadablePublish() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = Self.capture(
            try await Self.evidence(["WA/PAIR/BV-11"], fault: "long-txt-value", in: directory),
            "WA/PAIR/BV-11"
        )
        let nmi = try Self.accessoryNMI(capture)
        let report = try await Self.analyze(capture, ["--device", nmi])
        #expect(report.status == 1)
        let expected = try Self.tsharkFrames(capture, "nan.sda.sc.type == 0 && wlan.ta == \(nmi) && wlan.fc.retry == 0")
        #expect(!expected.isEmpty)
        #expect(report.frames("WA/CAP/TXT-01") == expected)
        // The lengthened value also differs from the profile's; nothing else is wrong.
        #expect(report.errorRules == ["WA/CAP/TXT-01", "WA/CAP/TXT-03"])
    }

    @Test func aMissingModelNameIsAnErrorAndAMissingPairingNameAWarning() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (fault, severity) in [("missing-model-name", "error"), ("missing-pairing-name", "warning")] {
            let capture = Self.capture(
                try await Self.evidence(["WA/PAIR/BV-11"], fault: fault, in: directory),
                "WA/PAIR/BV-11"
            )
            let nmi = try Self.accessoryNMI(capture)
            let report = try await Self.analyze(capture, ["--device", nmi])
            let expected = try Self.tsharkFrames(
                capture,
                "nan.sda.sc.type == 0 && wlan.ta == \(nmi) && wlan.fc.retry == 0"
            )
            let keys = report.findings.filter { $0["rule"] as? String == "WA/CAP/TXT-02" }
            #expect(keys.compactMap { $0["frame"] as? Int } == expected, "\(fault)")
            #expect(keys.allSatisfy { $0["severity"] as? String == severity }, "\(fault)")
            #expect(report.frames("WA/CAP/TXT-03") == expected, "\(fault): the profile names the key")
        }
    }

    @Test func unprotectedFramesAfterPairingAreFoundWhereTsharkSeesThem() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = Self.capture(
            try await Self.evidence(["WA/PAIR/BV-11"], fault: "no-frame-protection", in: directory),
            "WA/PAIR/BV-11"
        )
        let nmi = try Self.accessoryNMI(capture)
        let report = try await Self.analyze(capture, ["--device", nmi])
        #expect(report.status == 1)
        #expect(report.errorRules == ["WA/CAP/PROT-01"])
        let third = try #require(try Self.tsharkFrames(capture, "wlan.fixed.auth_seq == 3").first)
        let expected = try Self.tsharkFrames(
            capture,
            "frame.number > \(third) && wlan.fc.type_subtype == 0x000d && wlan.fc.protected == 0 "
                + "&& !(wlan.ra[0] & 1) && wlan.ta == \(nmi) && wlan.fc.retry == 0"
        )
        #expect(expected.count > 5)
        #expect(report.frames("WA/CAP/PROT-01") == expected)
    }

    @Test func plaintextDataAndDiscoveryWindowBurstsAreFound() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plaintext = Self.capture(
            try await Self.evidence(["WA/NDP/BV-04"], fault: "ndp-plaintext-data", in: directory),
            "WA/NDP/BV-04"
        )
        let report = try await Self.analyze(plaintext)
        // A retransmission (Retry bit) is judged once, with its original: the simulated air
        // captures every original.
        let expected = try Self.tsharkFrames(
            plaintext,
            "wlan.fc.type_subtype == 0x0028 && wlan.fc.protected == 0 && wlan.fc.retry == 0"
        )
        #expect(expected.count > 20)
        #expect(report.frames("WA/CAP/PROT-03") == expected)

        let bursts = Self.capture(
            try await Self.evidence(["WA/PERF/BV-01"], fault: "perf-dw-bursts", in: directory),
            "WA/PERF/BV-01"
        )
        let burstReport = try await Self.analyze(bursts)
        #expect(burstReport.status == 1)
        #expect(burstReport.errorRules == ["WA/CAP/DATA-DW-01"])
        // The finding starts at the stream's first data frame, as tshark numbers it.
        let firstData = try #require(
            try Self.tsharkFrames(bursts, "wlan.fc.type_subtype == 0x0028 && wlan.fc.protected == 1 && data.len > 200")
                .first
        )
        #expect(burstReport.frames("WA/CAP/DATA-DW-01").count == 1)
        #expect(burstReport.frames("WA/CAP/DATA-DW-01").first ?? 0 <= firstData)
    }

    @Test func theEmulatorsOwnPcapngReadsCleanAndItsWrongServiceIDIsFound() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for fault in [nil, "wrong-service-id"] as [String?] {
            let capture = directory.appendingPathComponent("\(fault ?? "healthy").pcapng").path
            var arguments = ["--profile", Self.profile, "--air", "sim", "--duration", "3", "--capture", capture]
            if let fault { arguments += ["--fault", fault] }
            let emulator = try await CommandRunner.run("accessory-emu", arguments)
            #expect(emulator.status == 0, "\(emulator.standardError)")
            let report = try await Self.analyze(capture)
            #expect((report.object["format"] as? String) == "pcapng")
            let publishes = try Self.tsharkFrames(capture, "nan.sda.sc.type == 0")
            #expect(!publishes.isEmpty)
            if fault == nil {
                #expect(report.status == 0, "\(report.findings)")
                #expect(report.findings.isEmpty, "\(report.findings)")
            } else {
                #expect(report.status == 1)
                #expect(report.errorRules == ["WA/CAP/SID-01"])
                #expect(report.frames("WA/CAP/SID-01") == publishes)
            }
        }
    }

    @Test func theHostapSessionAsTextGroupsByRuleAndEndsWithASummary() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["analyze", "Fixtures/hostap-session-A/session.pcap", "--service", "_drone-service._udp"]
        )
        #expect(outcome.status == 1)
        let text = outcome.standardOutput
        #expect(
            text.contains(
                "ERROR WA/CAP/PROT-01 — After pairing, unicast SDFs and NAFs are protected [10]"
            )
        )
        #expect(text.contains("  frame 17: SDF Follow-up from 02:b0:00:00:00:02 to 02:a0:00:00:00:01 is not protected"))
        #expect(
            text.hasSuffix(
                "Summary: 37 frames (37 NAN, 0 skipped), 2 pairings: 10 errors, 0 warnings, 1 note from 2 rules\n"
            )
        )
    }

    /// The members docs/reference/analyze-json.md documents, and no others.
    @Test func jsonHasTheDocumentedMembers() async throws {
        let report = try await Self.analyze("Fixtures/hostap-session-A/session.pcap")
        #expect(
            Set(report.object.keys) == ["capture", "format", "captureError", "profile", "summary", "findings", "rules"]
        )
        #expect(report.object["format"] as? String == "pcap")
        #expect(report.object["captureError"] is NSNull)
        let summary = try #require(report.object["summary"] as? [String: Any])
        #expect(
            Set(summary.keys) == [
                "frames", "nanFrames", "skippedFrames", "pairings", "errors", "warnings", "notes", "text",
            ]
        )
        #expect(summary["frames"] as? Int == 37)
        for finding in report.findings {
            #expect(Set(finding.keys) == ["frame", "rule", "severity", "message", "source"])
            #expect(["error", "warning", "info"].contains(finding["severity"] as? String ?? ""))
        }
        let rules = try #require(report.object["rules"] as? [[String: Any]])
        #expect(rules.count == 16)
        for rule in rules { #expect(Set(rule.keys) == ["id", "title", "source", "findings"]) }
        let documentation = try String(contentsOfFile: "docs/guides/analyze.md", encoding: .utf8)
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            #expect(documentation.contains("`\(id)`"), "\(id) is not in docs/guides/analyze.md")
        }
    }

    @Test func helpListsEveryRule() async throws {
        let outcome = try await CommandRunner.run("aware-conform", ["analyze", "--help"])
        #expect(outcome.status == 0)
        for rule in [
            "WA/CAP/FRAME-01", "WA/CAP/FRAME-02", "WA/CAP/FRAME-03", "WA/CAP/ATTR-01", "WA/CAP/SID-01", "WA/CAP/TXT-01",
            "WA/CAP/TXT-02", "WA/CAP/TXT-03", "WA/CAP/NPBA-01", "WA/CAP/NPBA-02", "WA/CAP/NIRA-01", "WA/CAP/PROT-01",
            "WA/CAP/PROT-02", "WA/CAP/PROT-03", "WA/CAP/SDF-DW-01", "WA/CAP/DATA-DW-01",
        ] {
            #expect(outcome.standardOutput.contains(rule), "\(rule) is not in --help")
        }
    }

    @Test func unreadableInputExitsTwoNamingTheFileAndOffset() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try await CommandRunner.run("aware-conform", ["analyze", directory.path + "/none.pcap"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("none.pcap: no such file"))

        let text = directory.appendingPathComponent("notes.pcap")
        try Data("hello, not a capture".utf8).write(to: text)
        let notCapture = try await CommandRunner.run("aware-conform", ["analyze", text.path])
        #expect(notCapture.status == 2)
        #expect(notCapture.standardError.contains("notes.pcap at offset 0: not a pcap or pcapng capture"))

        // The hostap session cut in the middle of frame 2's record.
        let session = try Data(contentsOf: URL(fileURLWithPath: "Fixtures/hostap-session-A/session.pcap"))
        let cut = directory.appendingPathComponent("cut.pcap")
        try session.prefix(24 + 16 + 198 + 16 + 10).write(to: cut)
        let truncated = try await CommandRunner.run("aware-conform", ["analyze", cut.path])
        #expect(truncated.status == 2)
        #expect(
            truncated.standardError.contains("cut.pcap at offset 254: malformed capture"),
            "\(truncated.standardError)"
        )
        // The frame before the cut is still analyzed.
        #expect(truncated.standardError.contains("(the 1 frames before it were analyzed)"))
        #expect(
            truncated.standardOutput.contains("Summary: 1 frame (1 NAN, 0 skipped)"),
            "\(truncated.standardOutput)"
        )

        let badProfile = try await CommandRunner.run(
            "aware-conform",
            ["analyze", "Fixtures/hostap-session-A/session.pcap", "--profile", text.path]
        )
        #expect(badProfile.status == 2)
        #expect(badProfile.standardError.contains("profile"))
    }
}
