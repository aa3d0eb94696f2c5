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
        let selftest = Selftest(
            target: target,
            profilePath: path,
            seed: seed,
            jobs: targetOptions.effectiveJobs(jobs),
            evidenceRoot: evidenceRoot,
            rerun: RerunCommand(baseArguments: [Invocation.program(default: "aware-conform"), "run", "--profile", path]
            ),
            toolVersion: AwareConform.version
        )
        var problems = 0
        switch selftest.recordedContract() {
        case .none: break
        case .equal(let recorded, let faults):
            print("contract: the expected failures equal the recorded matrix \(recorded) (\(faults) faults)")
        case .differs(let recorded, let differences):
            problems += 1
            print("contract: the expected failures differ from the recorded matrix \(recorded):")
            for line in differences { print("     \(line)") }
            print("     (if the change is meant, write the matrix again: its \"about\" says how)")
        case .unreadable(let recorded, let reason):
            problems += 1
            print("contract: cannot read the recorded matrix \(recorded): \(reason)")
        }

        let baseline = try selftest.baseline()
        print("no fault: \(baseline.applicable.count) applicable tests, \(baseline.failures.count) failing")
        for test in baseline.failures {
            problems += 1
            print("  UNEXPECTED \(test.verdict) \(test.id): \(test.message ?? "")")
        }
        for fault in onlyFaults.isEmpty ? ConformanceSuites.faults : onlyFaults {
            let outcome = try selftest.check(fault: fault, applicable: baseline.applicable)
            let label = !outcome.isOK ? "FAIL" : outcome.isNotApplicable ? "n/a " : "ok  "
            print("\(label) --fault \(fault): \(outcome.failing.count) failing, \(outcome.expected.count) expected")
            if outcome.expected.isEmpty { print("     no applicable test checks this fault for this profile") }
            for id in outcome.missed { print("     should have failed: \(id)") }
            for (id, message) in outcome.unexpected { print("     failed unexpectedly: \(id): \(message)") }
            if !outcome.isOK { problems += 1 }
        }
        print(problems == 0 ? "selftest passed" : "selftest: \(problems) problem\(problems == 1 ? "" : "s")")
        if problems > 0 { throw ExitCode(1) }
    }
}
