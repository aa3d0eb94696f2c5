import ArgumentParser
import AwareCommandLine
import ConformanceKit
import Foundation

struct SelftestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Prove the catalogue can fail: run it against deliberately broken accessories.",
        discussion: """
            Runs the catalogue once against the accessory as the profile describes it (every applicable \
            test must pass), then once per accessory fault (`accessory-emu --fault NAME`). Each fault \
            breaks one behaviour; the tests that check that behaviour must fail and every other \
            applicable test must still pass. A test that no fault can make fail would be a test that \
            cannot fail.

            The expectations are calibrated for profiles whose first service is published both \
            solicited and unsolicited (Profiles/drone.json, Profiles/speaker.json); with other profiles \
            the report shows where the fault's reach differs.

            Exit status: 0 every run came out as expected, 1 some did not, 2 usage or profile error, 3 \
            environment error.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @Option(help: "Base seed for every run.")
    var seed: UInt64 = 1

    @Option(help: "Tests to run at once within each run.")
    var jobs: Int = 1

    @Option(
        name: .customLong("only-fault"),
        help: ArgumentHelp("Check only this fault (repeatable).", valueName: "name")
    )
    var onlyFaults: [String] = []

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard targetOptions.target == "embedded" || targetOptions.target == "spawn" else {
            throw ValidationError("selftest needs a target the runner owns: embedded or spawn")
        }
        for fault in onlyFaults where !ConformanceSuites.faults.contains(fault) {
            throw ValidationError("no fault named \"\(fault)\"")
        }
    }

    func run() throws {
        logging.bootstrap()
        guard let (profile, document, path) = try targetOptions.loadProfile(required: true) else { return }
        let target = try targetOptions.makeTarget(profile: profile, document: document, path: path)
        let evidenceRoot = FileManager.default.temporaryDirectory.appendingPathComponent("awb-selftest-\(getpid())")
            .path
        defer { try? FileManager.default.removeItem(atPath: evidenceRoot) }

        func run(faults: [String]) throws -> RunResult {
            let catalogue = try TestCatalogue(ConformanceSuites.tests(target: target, faults: faults))
            let configuration = RunConfiguration(
                capabilities: target.capabilities,
                baseSeed: seed,
                jobs: targetOptions.effectiveJobs(jobs),
                evidence: .failingTests(root: evidenceRoot),
                clock: target.clock,
                rerun: RerunCommand(baseArguments: [
                    Invocation.program(default: "aware-conform"), "run", "--profile", path,
                ]),
                toolVersion: AwareConform.version
            )
            return try TestRunner(catalogue: catalogue, configuration: configuration).run()
        }

        // The contract: what each fault must break, from the tests' declarations. For a shipped profile
        // it must equal the matrix recorded beside it, so a change to the contract is a reviewed change.
        let matrix = FaultMatrix(profile: target.capabilities.profile)
        var problems = 0
        if let recordedPath = Self.recordedMatrixPath(forProfile: path) {
            let shown = Self.displayPath(recordedPath)
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: recordedPath))
                let differences = matrix.differences(from: try FaultMatrix(parsing: data))
                if differences.isEmpty {
                    print(
                        "contract: the expected failures equal the recorded matrix \(shown) (\(matrix.failures.count) faults)"
                    )
                } else {
                    problems += 1
                    print("contract: the expected failures differ from the recorded matrix \(shown):")
                    for line in differences { print("     \(line)") }
                    print("     (if the change is meant, write the matrix again: its \"about\" says how)")
                }
            } catch {
                problems += 1
                print("contract: cannot read the recorded matrix \(shown): \(error)")
            }
        }

        let baseline = try run(faults: [])
        let applicable = Set(baseline.tests.filter { $0.verdict != .skip }.map(\.id.description))
        let baselineFailures = baseline.tests.filter { $0.verdict.isFailing }
        print("no fault: \(applicable.count) applicable tests, \(baselineFailures.count) failing")
        for test in baselineFailures {
            problems += 1
            print("  UNEXPECTED \(test.verdict) \(test.id): \(test.message ?? "")")
        }
        let faults = onlyFaults.isEmpty ? ConformanceSuites.faults : onlyFaults
        for fault in faults {
            let expected = (matrix.failures[fault] ?? []).intersection(applicable)
            let result = try run(faults: [fault])
            let failing = Set(result.tests.filter { $0.verdict.isFailing }.map(\.id.description))
            let missed = expected.subtracting(failing).sorted()
            let extra = failing.subtracting(expected).sorted()
            let ok = missed.isEmpty && extra.isEmpty
            // A fault of a feature the profile lacks (a file service on the drone): no test can
            // catch it here, and none may fail because of it. Another profile's selftest checks it.
            let label = !ok ? "FAIL" : expected.isEmpty ? "n/a " : "ok  "
            print("\(label) --fault \(fault): \(failing.count) failing, \(expected.count) expected")
            if expected.isEmpty { print("     no applicable test checks this fault for this profile") }
            for id in missed { print("     should have failed: \(id)") }
            for id in extra {
                let message = result.tests.first { $0.id.description == id }?.message ?? ""
                print("     failed unexpectedly: \(id): \(message)")
            }
            if !ok { problems += 1 }
        }
        print(problems == 0 ? "selftest passed" : "selftest: \(problems) problem\(problems == 1 ? "" : "s")")
        if problems > 0 { throw ExitCode(1) }
    }

    /// The matrix recorded for a shipped profile: `Profiles/<name>.json` has
    /// `Fixtures/selftest/<name>-matrix.json` beside its directory. Nil for any other profile.
    static func recordedMatrixPath(forProfile path: String) -> String? {
        let profile = URL(fileURLWithPath: path).standardizedFileURL
        let directory = profile.deletingLastPathComponent()
        guard directory.lastPathComponent == "Profiles" else { return nil }
        let name = profile.deletingPathExtension().lastPathComponent
        let recorded = directory.deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent("selftest").appendingPathComponent("\(name)-matrix.json")
        return FileManager.default.fileExists(atPath: recorded.path) ? recorded.path : nil
    }

    /// `path` relative to the working directory when it lies under it.
    static func displayPath(_ path: String) -> String {
        let here = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(here) ? String(path.dropFirst(here.count)) : path
    }
}
