import AwareCore
import AwareWire
import Foundation

@testable import ConformanceKit

/// Synthetic tests and run settings the runner and report tests share: bodies that pass, fail, throw,
/// break the environment, skip, hang, and a profile to gate them on.
enum Synthetic {
    static let profile = ProfileFacts(
        path: "Profiles/drone.json",
        services: [
            ServiceFacts(
                name: "_drone-service._udp",
                instanceID: 1,
                publishesUnsolicited: true,
                answersSubscribes: true,
                matchFilter: "drone:*:v2",
                txtKeys: ["vendorName", "modelName", "pairingName"]
            )
        ],
        offersPairing: true
    )

    static func capabilities(
        profile: ProfileFacts? = Synthetic.profile,
        restart: TargetAbility = .available
    ) -> TargetCapabilities {
        TargetCapabilities(target: "embedded", profile: profile, restart: restart)
    }

    static let rerun = RerunCommand(baseArguments: [
        "aware-conform", "run", "--profile", "Profiles/drone.json", "--target", "embedded",
    ])

    static func configuration(
        seed: UInt64 = 42,
        only: [String] = [],
        skip: [String] = [],
        jobs: Int = 1,
        shard: Shard? = nil,
        iterations: Int = 1,
        evidence: EvidencePolicy? = nil,
        capabilities: TargetCapabilities = Synthetic.capabilities(),
        wallLimit: Duration = .seconds(20)
    ) -> RunConfiguration {
        RunConfiguration(
            capabilities: capabilities,
            baseSeed: seed,
            selection: TestSelection(only: only, skip: skip),
            jobs: jobs,
            shard: shard,
            iterations: iterations,
            evidence: evidence ?? .failingTests(root: temporaryDirectory()),
            defaultWallLimit: wallLimit,
            rerun: rerun,
            toolVersion: "0.0.0-test",
            runID: "test-run"
        )
    }

    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aware-conform-\(UUID().uuidString)")
            .path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func test(
        _ id: String,
        _ title: String = "A synthetic test",
        tags: [String] = [],
        requires: [TestRequirement] = [],
        needsRestart: Bool = false,
        budget: Interval = .seconds(Int64(10)),
        wallLimit: Duration? = nil,
        _ body: @escaping @Sendable (TestContext) throws -> Void
    ) -> ConformanceTest {
        try! ConformanceTest(
            id: id,
            title: title,
            tags: tags,
            requires: requires,
            needsRestart: needsRestart,
            budget: budget,
            wallLimit: wallLimit,
            body
        )
    }

    static func test(_ id: String, _ body: @escaping @Sendable (TestContext) throws -> Void) -> ConformanceTest {
        test(id, "A synthetic test", body)
    }

    /// Logs, advances virtual time, captures a frame drawn from the seed, and passes.
    static let passes: @Sendable (TestContext) throws -> Void = { context in
        context.advanceVirtualTime(to: Instant(nanoseconds: 524_288_000))
        context.log(
            "publish-seen",
            ["service": .string("_drone-service._udp"), "draw": .unsigned(context.generator.next())]
        )
        context.capture(CaptureRecord(timestamp: 1_000, frame: [0xD0, 0x00, 0x00, 0x00, UInt8(context.seed & 0xFF)]))
        context.advanceVirtualTime(to: Instant(nanoseconds: 1_500_000_000))
        context.expect(true, "never recorded")
    }

    static let fails: @Sendable (TestContext) throws -> Void = { context in
        context.advanceVirtualTime(to: Instant(nanoseconds: 2_000_000_000))
        context.expectEqual(0, 1, "discovered services")
        context.expect(false, "no Publish SDF within the budget")
    }

    struct BrokenTest: Error, CustomStringConvertible {
        var description: String { "index out of range in the test" }
    }

    static let throwsError: @Sendable (TestContext) throws -> Void = { _ in throw BrokenTest() }

    static let breaksEnvironment: @Sendable (TestContext) throws -> Void = { _ in
        throw EnvironmentFailure("could not bind /tmp/air.sock")
    }

    /// Eight tests over two groups: pass, fail, error, skip (requirement), pass.
    static func mixedCatalogue() -> TestCatalogue {
        try! TestCatalogue([
            test(
                "WA/DISC/SD/BV-02",
                "Unsolicited publish is discovered by a passive subscribe",
                tags: ["publish"],
                passes
            ),
            test(
                "WA/DISC/MF/BV-03",
                "Matching filter row 3 matches",
                tags: ["filters"],
                requires: [.matchFilter],
                fails
            ),
            test("WA/DISC/SD/BV-01", "Solicited publish answers an active subscribe", passes),
            test("WA/DISC/SD/BI-01", "A malformed subscribe is ignored", throwsError),
            test("WA/DISC/SD/BV-10", "Several services", requires: [.services(atLeast: 2)], passes),
            test("WA/PAIR/BV-01", "Pairing offered is advertised", requires: [.pairing], passes),
        ])
    }
}

/// Thread-safe bag for what bodies observe.
final class Observations<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

/// A console reporter's output, collected.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func write(_ chunk: String) { lock.withLock { text += chunk } }
    var value: String { lock.withLock { text } }
}
