import Foundation
import Testing

/// `aware-conform perf` through the real programs: a paired data path measured in bulk and in
/// realtime, the refusal of a mode the accessory's listener does not run, the spawn target, and
/// usage errors.
@Suite struct PerfCommandTests {
    static func perf(_ arguments: [String]) async throws -> (status: Int32, json: [String: Any], output: String) {
        let outcome = try await CommandRunner.run("aware-conform", ["perf"] + arguments + ["--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
            "\(outcome.standardOutput) \(outcome.standardError)"
        )
        return (outcome.status, object, outcome.standardOutput + outcome.standardError)
    }

    static func number(_ object: [String: Any], _ path: String...) -> Double? {
        var current: Any? = object
        for key in path { current = (current as? [String: Any])?[key] }
        return (current as? NSNumber)?.doubleValue
    }

    @Test func bulkOnTheEmbeddedTargetReportsTheMeasuredFlow() async throws {
        let run = try await Self.perf(["--profile", "Profiles/drone.json", "--duration", "2", "--seed", "4"])
        #expect(run.status == 0, "\(run.output.suffix(1500))")
        let json = run.json
        for key in [
            "result", "mode", "serviceClass", "target", "accessory", "flow", "accessoryReport", "latencyMs",
            "throughputMbps", "dutyCycle", "packets", "jitterMs", "energy", "signalStrength", "transmitLatencyMs",
        ] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["result"] as? String == "measured")
        #expect(json["mode"] as? String == "bulk")
        #expect(json["serviceClass"] as? String == "best-effort")
        #expect(json["target"] as? String == "embedded")
        for key in ["mean", "p50", "p95", "p99"] { #expect(Self.number(json, "latencyMs", key) != nil, "\(key)") }
        #expect((Self.number(json, "latencyMs", "p99") ?? 0) > 0)
        #expect(Self.number(json, "dutyCycle") == 0.25)
        let delivered = try #require(Self.number(json, "packets", "delivered"))
        let offered = try #require(Self.number(json, "packets", "offered"))
        #expect(delivered > 0 && delivered <= offered, "\(delivered) of \(offered)")
        // The drone's telemetry rate (60 Hz) for 2 s.
        #expect((118...121).contains(offered), "offered \(offered)")
        let octets = try #require(Self.number(json, "flow", "payloadOctets"))
        #expect(octets == 128)
        let window = try #require(Self.number(json, "flow", "windowSeconds"))
        #expect(window >= 1.9 && window <= 2.2, "window \(window)")
        let expected = delivered * octets * 8 / window / 1e6
        let throughput = try #require(Self.number(json, "throughputMbps"))
        #expect(abs(throughput - expected) <= expected * 0.01, "\(throughput) vs \(expected)")
        let accessory = try #require(json["accessoryReport"] as? [String: Any])
        #expect(Self.number(accessory, "dutyCycle") == 0.25)
        #expect((Self.number(accessory, "packets", "offered") ?? 0) >= offered)
    }

    /// `--traffic echo`: round trips from ICMPv6 echo, what any accessory's stack answers; the
    /// default for a profile without the bench's protocol. Bulk waits for its blocks (gaps up
    /// to 96 TU, docs/reference/performance.md); realtime sends in every slot but the
    /// discovery window's.
    @Test func echoMeasuresRoundTripsInEachMode() async throws {
        let directory = try DataPathRunTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let standard = try DataPathRunTests.withoutBenchProtocol("drone", in: directory)
        var p99: [String: Double] = [:]
        for (mode, profile, traffic) in [
            ("bulk", standard, [String]()), ("realtime", "Profiles/drone.json", ["--traffic", "echo"]),
        ] {
            let run = try await Self.perf(
                [
                    "--profile", profile, "--mode", mode, "--duration", "2", "--rate", "50", "--size", "64", "--seed",
                    "6",
                ]
                    + traffic
            )
            #expect(run.status == 0, "\(run.output.suffix(1500))")
            #expect(run.json["traffic"] as? String == "echo", "\(mode)")
            #expect(run.json["accessoryReport"] is NSNull, "\(mode)")
            let echo = try #require(run.json["echo"] as? [String: Any], "\(mode)")
            #expect(Self.number(echo, "sent") == 100, "\(mode)")
            #expect(Self.number(echo, "answered") == 100, "\(mode)")
            let trip = try #require(echo["roundTripMs"] as? [String: Any], "\(mode)")
            let values = ["min", "p50", "p95", "p99", "max"].compactMap { Self.number(trip, $0) }
            #expect(values.count == 5 && values == values.sorted() && values[0] > 0, "\(mode): \(values)")
            p99[mode] = Self.number(trip, "p99")
        }
        let bulk = try #require(p99["bulk"])
        let realtime = try #require(p99["realtime"])
        #expect(realtime < 20, "realtime p99 \(realtime) ms")
        #expect(bulk > realtime && bulk < 250, "bulk p99 \(bulk) ms")
    }

    @Test func realtimeAgainstTheDroneInRealtimeStaysWithinItsBudget() async throws {
        let run = try await Self.perf([
            "--profile", "Profiles/drone.json", "--mode", "realtime", "--duration", "2", "--seed", "5",
        ])
        #expect(run.status == 0, "\(run.output.suffix(1500))")
        #expect(run.json["result"] as? String == "measured")
        #expect(run.json["accessoryMode"] as? String == "realtime")
        // The drone's class in realtime is interactive video: AC_VI, TID 5.
        #expect(run.json["accessCategory"] as? String == "AC_VI")
        #expect(Self.number(run.json, "flow", "tid") == 5)
        #expect(Self.number(run.json, "latencyBudgetMs") == 20)
        let p99 = try #require(Self.number(run.json, "latencyMs", "p99"))
        #expect(p99 > 0 && p99 < 20, "p99 \(p99) ms")
        #expect(Self.number(run.json, "dutyCycle") == 1)
    }

    @Test func realtimeAgainstABulkListenerIsRefusedAsAModeMismatch() async throws {
        let run = try await Self.perf([
            "--profile", "Profiles/drone.json", "--mode", "realtime", "--accessory-mode", "bulk", "--duration", "1",
        ])
        #expect(run.status == 1, "\(run.output.suffix(1500))")
        #expect(run.json["result"] as? String == "refused")
        #expect(run.json["reason"] as? String == "mode-mismatch")
        #expect(Self.number(run.json, "nanReasonCode") == 9)
        #expect(run.json["latencyMs"] == nil)
    }

    @Test func theSpawnTargetMeasuresThroughARealEmulatorProcess() async throws {
        let run = try await Self.perf(["--profile", "Profiles/drone.json", "--target", "spawn", "--duration", "2"])
        #expect(run.status == 0, "\(run.output.suffix(1500))")
        #expect(run.json["result"] as? String == "measured")
        #expect(run.json["target"] as? String == "spawn")
        let delivered = try #require(Self.number(run.json, "packets", "delivered"))
        let offered = try #require(Self.number(run.json, "packets", "offered"))
        #expect(delivered > 0 && delivered <= offered, "\(delivered) of \(offered)")
        #expect(Self.number(run.json, "dutyCycle") == 0.25)
    }

    @Test func theSpawnedEmulatorGetsTheRealtimeMode() async throws {
        let run = try await Self.perf([
            "--profile", "Profiles/drone.json", "--target", "spawn", "--mode", "realtime", "--duration", "1",
        ])
        #expect(run.status == 0, "\(run.output.suffix(1500))")
        #expect(run.json["result"] as? String == "measured")
        #expect(Self.number(run.json, "dutyCycle") == 1)
    }

    @Test func theTextOutputIsATable() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["perf", "--profile", "Profiles/drone.json", "--duration", "1"]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        for label in [
            "perf: measured", "signal strength", "throughput ceiling", "capacity ratio", "transmit latency AC_BE",
            "latency mean/p50/p95/p99", "jitter", "packets delivered", "packets offered", "duty cycle", "energy",
        ] {
            #expect(outcome.standardOutput.contains(label), "missing \(label)")
        }
    }

    @Test(arguments: [
        ["--class", "fast"], ["--duration", "0"], ["--mode", "turbo"], ["--size", "0"], ["--rate", "-1"],
        ["--target", "socket", "--accessory-mode", "bulk"], ["--accessory-mode", "realtime"], ["--pin", "12ab56"],
        ["--pin", "1234567"],
    ])
    func usageErrorsExitTwo(arguments: [String]) async throws {
        let profile = arguments.contains("--accessory-mode") && arguments.count == 2 ? "camera" : "drone"
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["perf", "--profile", "Profiles/\(profile).json"] + arguments
        )
        #expect(outcome.status == 2, "\(arguments): \(outcome.standardError)")
    }

    /// `--pin`: the label's PIN is what perf types when it has to pair; another one fails the
    /// pairing with SAE's confirm mismatch, and nothing is measured.
    @Test func aLabelsPINPairsAndAWrongOneDoesNot() async throws {
        let right = try await Self.perf([
            "--profile", "Profiles/camera.json", "--pin", "20254718", "--traffic", "echo", "--duration", "1",
        ])
        #expect(right.status == 0, "\(right.output.suffix(1500))")
        #expect(right.json["pairing"] as? String == "paired")
        #expect(!right.output.contains("20254718"), "the PIN is not printed")
        let wrong = try await Self.perf([
            "--profile", "Profiles/camera.json", "--pin", "20254719", "--traffic", "echo", "--duration", "1",
        ])
        #expect(wrong.status == 1)
        #expect(wrong.json["reason"] as? String == "pairing-failed", "\(wrong.json)")
    }

    @Test func theEmulatorRefusesAModeItsProfileDoesNotOffer() async throws {
        let outcome = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/camera.json", "--mode", "realtime", "--air", "sim", "--duration", "1"]
        )
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("does not offer"), "\(outcome.standardError)")
        let bad = try await CommandRunner.run("accessory-emu", ["--profile", "Profiles/drone.json", "--mode", "fast"])
        #expect(bad.status == 2)
        let realtime = try await CommandRunner.run(
            "accessory-emu",
            ["--profile", "Profiles/drone.json", "--mode", "realtime", "--air", "sim", "--duration", "1"]
        )
        #expect(realtime.status == 0, "\(realtime.standardError)")
        #expect(realtime.standardOutput.contains("mode:       realtime"), "\(realtime.standardOutput)")
    }
}
