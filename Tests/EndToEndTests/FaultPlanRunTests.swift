import AwareTestSupport
import Foundation
import Testing

/// `aware-conform run --fault-plan` through the real program: each kind of step changes what
/// the test sees, the events say what was injected, and tshark reads the fault in the capture.
@Suite struct FaultPlanRunTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-plan-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `tests` with the plan `plan` (and `extra` flags); returns the outcome and where the
    /// evidence went.
    static func run(
        _ plan: String,
        only tests: [String],
        extra: [String] = [],
        in directory: URL
    ) async throws -> (CommandRunner.Outcome, URL) {
        let planFile = directory.appendingPathComponent("plan.json")
        try Data(plan.utf8).write(to: planFile)
        let evidence = directory.appendingPathComponent("evidence")
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["run", "--profile", "Profiles/drone.json", "--fault-plan", planFile.path, "--evidence", evidence.path]
                + tests.flatMap { ["--only", $0] } + extra
        )
        return (outcome, evidence)
    }

    static func events(_ evidence: URL, _ test: String) throws -> [[String: Any]] {
        let file = evidence.appendingPathComponent(test.replacingOccurrences(of: "/", with: "_"))
            .appendingPathComponent("events.jsonl")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func injected(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == "fault_injected" }
    }

    static func capture(_ evidence: URL, _ test: String) -> String {
        evidence.appendingPathComponent(test.replacingOccurrences(of: "/", with: "_")).appendingPathComponent(
            "capture.pcap"
        ).path
    }

    /// Every PASN frame 2 lost on every try: the pairing fails (the phone repeats frame 1, and
    /// each answer is lost too), the air's seven tries (its retry limit) of each frame 2 are each
    /// injected, and tshark sees frame-2 transmissions in sevens, six with the Retry bit, none
    /// acknowledged.
    @Test func aFrameLostOnEveryTryFailsThePairingAndTheCaptureShowsIt() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, evidence) = try await Self.run(
            #"""
            {"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-2", "from": "accessory", "nth": "every",
            "attempts": "all"}]}
            """#,
            only: ["WA/PAIR/BV-01"],
            in: directory
        )
        #expect(outcome.status == 1, "\(outcome.standardOutput.suffix(1500))")
        #expect(outcome.standardOutput.contains("--fault-plan"), "the rerun command names the plan")
        let injected = Self.injected(try Self.events(evidence, "WA/PAIR/BV-01"))
        #expect(injected.count % 7 == 0 && !injected.isEmpty)
        #expect(injected.prefix(7).map { $0["attempt"] as? Int } == (1...7).map { $0 })
        #expect(Set(injected.compactMap { $0["frame"] as? String }) == ["pasn-2"])
        let capture = Self.capture(evidence, "WA/PAIR/BV-01")
        let frames = try ExternalTool.tshark(
            [
                "-r", capture, "-Y", "wlan.fixed.auth.alg == 7 && wlan.fixed.auth_seq == 2", "-T", "fields", "-e",
                "wlan.fc.retry", "-e", "frame.number",
            ]
        )
        let lines = frames.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.count % 7 == 0 && !lines.isEmpty, "\(frames.output)")
        #expect(lines.prefix(7).map(\.first) == ["0"] + Array(repeating: "1", count: 6), "\(frames.output)")
        // No ACK answers any of them: the frame after each is not an ACK to the accessory.
        let accessory = try #require(
            try ExternalTool.tshark(
                ["-r", capture, "-Y", "wlan.fixed.auth_seq == 2", "-T", "fields", "-e", "wlan.ta"]
            ).output.split(separator: "\n").first.map(String.init)
        )
        let acks = try ExternalTool.tshark([
            "-r", capture, "-Y", "wlan.fc.type_subtype == 0x1d && wlan.ra == \(accessory)",
        ])
        let numbers = Set(lines.compactMap { $0.last.flatMap(Int.init) })
        let ackNumbers = acks.output.split(separator: "\n").compactMap {
            $0.split(separator: " ", omittingEmptySubsequences: true).first.flatMap { Int($0) }
        }
        #expect(ackNumbers.allSatisfy { !numbers.contains($0 - 1) }, "\(acks.output)")
    }

    /// Lost on its first try only: the accessory's MAC retry recovers, the test passes, and the
    /// capture holds the frame twice (the retry with the Retry bit).
    @Test func aFrameLostOnceIsRecoveredByTheRetry() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, evidence) = try await Self.run(
            #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-2", "from": "accessory"}]}"#,
            only: ["WA/PAIR/BV-01"],
            in: directory
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
        #expect(Self.injected(try Self.events(evidence, "WA/PAIR/BV-01")).count == 1)
        let frames = try ExternalTool.tshark(
            [
                "-r", Self.capture(evidence, "WA/PAIR/BV-01"), "-Y", "wlan.fixed.auth_seq == 2", "-T", "fields", "-e",
                "wlan.fc.retry",
            ]
        )
        // The first transmission (lost) and the MAC's retry, which carries the Retry bit.
        #expect(frames.output.split(separator: "\n").prefix(2) == ["0", "1"], "\(frames.output)")
    }

    /// On the socket air (spawn target: the accessory in a child process) the runner's air
    /// applies the plan to what the phone sends (its first PASN frame 1 is lost; the phone sends
    /// it again) and to what arrives from the other process (the accessory's PASN frame 2 is
    /// delivered 200 ms late). The socket air has no MAC retries, so the recovery is the
    /// protocol's own.
    @Test func theSocketAirAppliesThePlanToFramesFromAnotherProcess() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, evidence) = try await Self.run(
            #"""
            {"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-1", "from": "phone"},
              {"action": "delay", "frame": "pasn-2", "from": "accessory", "milliseconds": 200}]}
            """#,
            only: ["WA/PAIR/BV-01"],
            extra: ["--target", "spawn"],
            in: directory
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
        let injected = Self.injected(try Self.events(evidence, "WA/PAIR/BV-01"))
        #expect(injected.compactMap { $0["frame"] as? String } == ["pasn-1", "pasn-2"], "\(injected)")
    }

    /// Fixtures/fault-plans/late-beacons.json: every beacon of the accessory reaches the phone
    /// 3 ms late, as when a loaded process reads its datagram late. The accessory runs first and
    /// forms the cluster (as the README's socket run starts it), so the phone joins with its TSF
    /// 3 ms behind. It outranks the accessory and becomes the anchor master; the accessory takes
    /// the anchor master's TSF from its sync beacons (`cluster_time_adjusted`), the two count the
    /// same data slots, and the telemetry arrives. Before the accessory followed the anchor
    /// master, 54-64 of 120 datagrams arrived (the README's socket run failed so in CI).
    @Test func aTSFTakenFromLateBeaconsIsCorrectedAndTheDataPathCarriesEverything() async throws {
        let directory = try Self.directory()
        let air = "/tmp/awb-tsf-\(UUID().uuidString.prefix(6))"
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(atPath: air)
        }
        let log = directory.appendingPathComponent("accessory.jsonl").path
        let emulator = Process()
        emulator.executableURL = URL(fileURLWithPath: "/bin/sh")
        emulator.arguments = [
            "-c", "exec \"$0\" --profile Profiles/drone.json --air socket:\(air) --json > '\(log)' 2>&1",
            CommandRunner.productsDirectory.appendingPathComponent("accessory-emu").path,
        ]
        emulator.currentDirectoryURL = CommandRunner.repository
        try emulator.run()
        defer {
            emulator.terminate()
            emulator.waitUntilExit()
        }
        // It scans for about 2 s, then forms its cluster.
        var formed = false
        for _ in 0..<100 where !formed {
            try await Task.sleep(for: .milliseconds(100))
            formed = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("cluster_started")
        }
        #expect(formed)
        let plan = try String(
            contentsOf: SessionFixture.directory.appendingPathComponent("fault-plans/late-beacons.json"),
            encoding: .utf8
        )
        let (outcome, evidence) = try await Self.run(
            plan,
            only: ["WA/NDP/BV-01"],
            extra: ["--target", "socket:\(air)"],
            in: directory
        )
        #expect(outcome.status == 0, "\(outcome.standardOutput.suffix(1500))")
        let events = try Self.events(evidence, "WA/NDP/BV-01")
        #expect(Self.injected(events).contains { $0["frame"] as? String == "beacon" })
        let received = events.first { $0["event"] as? String == "telemetry_received" }?["datagrams"] as? Int
        #expect((received ?? 0) >= 90, "telemetry datagrams: \(received ?? -1) of 120")
        let lines = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(lines.contains(#""event":"cluster_time_adjusted""#), "\(lines.suffix(800))")
    }

    /// "Reboot between pairing and verification": an accessory that keeps its keys passes; one
    /// that forgets them on a restart fails the same plan.
    @Test func aRebootBetweenPairingAndVerification() async throws {
        let plan = #"{"faultPlan": 1, "steps": [{"action": "reboot", "after": "paired"}]}"#
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (good, evidence) = try await Self.run(plan, only: ["WA/RECON/BV-01"], in: directory)
        #expect(good.status == 0, "\(good.standardOutput.suffix(1500))")
        let events = try Self.events(evidence, "WA/RECON/BV-01")
        let order = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "fault_injected": "reboot"
            case "pairing_outcome": event["result"] as? String
            default: nil
            }
        }
        #expect(order == ["paired", "reboot", "reconnected"])
        let boots = try String(
            contentsOf: evidence.appendingPathComponent("WA_RECON_BV-01/accessory-events.jsonl"),
            encoding: .utf8
        ).split(separator: "\n").filter { $0.contains(#""event":"ready""#) }
        #expect(boots.count == 2 && boots.last!.contains(#""boot":2"#), "\(boots)")

        let (faulty, _) = try await Self.run(
            plan,
            only: ["WA/RECON/BV-01"],
            extra: ["--fault", "forget-keys-on-restart"],
            in: try Self.directory()
        )
        #expect(faulty.status == 1, "\(faulty.standardOutput.suffix(1500))")
    }

    /// A corrupted Service ID in every publish: the phone no longer recognises the service, the
    /// discovery test fails, and the capture's publishes carry the changed ID.
    @Test func aCorruptedFieldIsWhatTheAirCarries() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, evidence) = try await Self.run(
            #"""
            {"faultPlan": 1, "steps": [{"action": "corrupt", "frame": "publish", "from": "accessory", "nth": "every",
              "attribute": "service-descriptor", "field": "service-id", "set": "000000000000"}]}
            """#,
            only: ["WA/DISC/PUB/BV-01"],
            in: directory
        )
        #expect(outcome.status == 1, "\(outcome.standardOutput.suffix(1500))")
        #expect(!Self.injected(try Self.events(evidence, "WA/DISC/PUB/BV-01")).isEmpty)
        let ids = try ExternalTool.tshark(
            [
                "-r", Self.capture(evidence, "WA/DISC/PUB/BV-01"), "-Y", "nan.sda.sc.type == 0", "-T", "fields", "-e",
                "nan.service_id",
            ]
        )
        let values = Set(ids.output.split(separator: "\n").map(String.init))
        #expect(values == ["00:00:00:00:00:00"], "\(ids.output.prefix(400))")
    }

    /// A plan that cannot be read stops the run before any test, with where and what (exit 2).
    @Test func aBadPlanIsAUsageError() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, _) = try await Self.run(
            #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-7"}]}"#,
            only: ["WA/PAIR/BV-01"],
            in: directory
        )
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError.contains("steps[0].frame: \"pasn-7\" is not a frame kind"),
            "\(outcome.standardError)"
        )
    }
}
