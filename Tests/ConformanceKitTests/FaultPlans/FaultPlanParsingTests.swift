import AwareTestSupport
import ConformanceKit
import Foundation
import Testing

/// Fault plans are data a person writes: what they say is what runs, and every mistake is
/// refused with the file, the JSON path and what is wrong.
@Suite struct FaultPlanParsingTests {
    static func parse(_ text: String) throws(FaultPlanError) -> FaultPlan {
        try FaultPlan.parse(Data(text.utf8), file: "plan.json")
    }

    static func problem(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "parsed"
        } catch {
            return error.description
        }
    }

    @Test func everyActionReadsAsWritten() throws {
        let plan = try Self.parse(
            """
            {"faultPlan": 1, "description": "lossy pairing",
             "steps": [
              {"tests": ["WA/PAIR/*"], "action": "drop", "frame": "pasn-2", "from": "accessory", "attempts": "all"},
              {"action": "delay", "frame": "follow-up", "from": "phone", "nth": 2, "milliseconds": 300},
              {"action": "corrupt", "frame": "publish", "nth": "every", "attribute": "service-descriptor",
               "field": "service-id", "xor": "01"},
              {"action": "corrupt", "frame": "pasn-2", "attribute": "authentication", "field": "status-code", "set": "0100"},
              {"tests": ["WA/RECON/BV-01"], "action": "reboot", "after": "paired"},
              {"action": "out-of-range", "after": "paired", "seconds": 10}
             ]}
            """
        )
        #expect(plan.description == "lossy pairing")
        #expect(plan.steps.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(plan.steps[0].action == .drop(.init(kind: .pasn2, sender: .accessory, nth: 1), everyAttempt: true))
        #expect(plan.steps[1].action == .delay(.init(kind: .followUp, sender: .phone, nth: 2), by: .milliseconds(300)))
        let serviceID = try #require(FaultField.named(attribute: "service-descriptor", field: "service-id"))
        #expect(
            plan.steps[2].action
                == .corrupt(.init(kind: .publish, nth: nil), field: serviceID, occurrence: 1, change: .xor([1]))
        )
        let status = try #require(FaultField.named(attribute: "authentication", field: "status-code"))
        #expect(
            plan.steps[3].action == .corrupt(.init(kind: .pasn2), field: status, occurrence: 1, change: .set([1, 0]))
        )
        #expect(plan.steps[4].action == .reboot(after: .paired))
        #expect(plan.steps[5].action == .outOfRange(after: .paired, duration: .seconds(10)))
        // Steps select tests by pattern; a step without `tests` applies to every test.
        #expect(plan.steps(for: try TestID("WA/PAIR/BV-01")).map(\.number) == [1, 2, 3, 4, 6])
        #expect(plan.steps(for: try TestID("WA/RECON/BV-01")).map(\.number) == [2, 3, 4, 5, 6])
    }

    @Test func mistakesNameTheFileThePathAndTheProblem() {
        let cases: [(String, String)] = [
            ("[1]", "plan.json: expected an object"),
            ("{", "plan.json: not JSON at line 1, column 2: unexpected end of file inside an object"),
            (#"{"steps": []}"#, "plan.json: faultPlan: missing"),
            (#"{"faultPlan": 2, "steps": []}"#, "plan.json: faultPlan: version 2 is newer than this build reads (1)"),
            (#"{"faultPlan": 1, "steps": []}"#, "plan.json: steps: a plan needs at least one step"),
            (
                #"{"faultPlan": 1, "step": []}"#,
                "plan.json: step: not a member here (known: $schema, description, faultPlan, steps)"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "explode"}]}"#,
                "plan.json: steps[0].action: \"explode\" is not an action; known: drop, delay, corrupt, reboot, out-of-range"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-2"}, {"action": "drop", "frame": "pasn-9"}]}"#,
                "plan.json: steps[1].frame: \"pasn-9\" is not a frame kind; known: "
                    + FaultFrameKind.allCases.map(\.rawValue).joined(separator: ", ")
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "sdf", "nth": 0}]}"#,
                "plan.json: steps[0].nth: expected an integer from 1 to 100000"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "sdf", "nth": "last"}]}"#,
                "plan.json: steps[0].nth: \"last\" is not a number or \"every\""
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "sdf", "from": "router"}]}"#,
                "plan.json: steps[0].from: \"router\" is not phone, accessory or any"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "sdf", "milliseconds": 5}]}"#,
                "plan.json: steps[0].milliseconds: not a member here (known: action, attempts, description, frame, from, nth, tests)"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "delay", "frame": "sdf"}]}"#,
                "plan.json: steps[0].milliseconds: missing"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "corrupt", "frame": "sdf", "attribute": "ndp", "field": "ndp-id", "set": "0102"}]}"#,
                "plan.json: steps[0].set: ndp.ndp-id has 1 octets, not 2"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "corrupt", "frame": "sdf", "attribute": "ndp", "field": "ndp-id", "xor": "zz"}]}"#,
                "plan.json: steps[0].xor: expected hex octets, such as \"ff\" or \"00 01\""
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "reboot", "after": "lunch"}]}"#,
                "plan.json: steps[0].after: \"lunch\" is not a moment of the test; known: start, discovered, bootstrapped, paired, reconnected, datapath-up"
            ),
            (
                #"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "sdf", "tests": [7]}]}"#,
                "plan.json: steps[0].tests[0]: expected a string"
            ),
        ]
        for (text, expected) in cases {
            #expect(Self.problem(text) == expected, "\(text)")
        }
    }

    @Test func anUnknownFieldListsTheFieldsAPlanCanCorrupt() {
        let text =
            #"{"faultPlan": 1, "steps": [{"action": "corrupt", "frame": "sdf", "attribute": "ndp", "field": "colour"}]}"#
        let message = Self.problem(text)
        #expect(message.hasPrefix("plan.json: steps[0].field: ndp.colour is not a field a plan can corrupt; known: "))
        #expect(message.contains("pairing-bootstrapping (dialog-token, methods, reason-code, type-and-status)"))
    }

    /// Whatever the bytes, a plan parses or is refused with a message; it never traps. The
    /// mutations come from a seed printed here (a trap ends the process before any message
    /// could carry it); `AWAREBENCH_SEED=<n>` repeats a run.
    @Test func arbitraryBytesAreRefusedNotTrapped() {
        let seed = TestSeed()
        print("arbitraryBytesAreRefusedNotTrapped: \(seed)")
        var generator = seed.generator()
        let base = Array(#"{"faultPlan": 1, "steps": [{"action": "drop", "frame": "pasn-2", "nth": 3}]}"#.utf8)
        for _ in 0..<2_000 {
            var bytes = base
            for _ in 0..<3 {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? FaultPlan.parse(Data(bytes), file: "mutated.json")
        }
    }
}

extension FaultPlanParsingTests {
    /// The example in docs/reference/fault-plans.md (kept as Fixtures/fault-plans/example.json) reads.
    @Test func theDocumentedExampleReads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let example = root.appendingPathComponent("Fixtures/fault-plans/example.json")
        let text = try String(contentsOf: example, encoding: .utf8)
        let documentation = try String(
            contentsOf: root.appendingPathComponent("docs/reference/fault-plans.md"),
            encoding: .utf8
        )
        #expect(documentation.contains("```json\n" + text + "```"), "the fixture is the documented example")
        let plan = try FaultPlan.parse(Data(text.utf8), file: example.path)
        #expect(plan.steps.map(\.action.name) == ["drop", "delay", "corrupt", "reboot", "out-of-range"])
    }
}
