import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareProtocol
import ConformanceKit
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the conformance catalogue against an accessory.",
        discussion: """
            Runs every applicable test (or those --only selects; `*` matches across `/`, and \
            `aware-conform list` shows them) and reports a verdict for each: pass, fail, skip (with \
            the reason), error or timeout. A missing or empty profile is an error, never an empty run.

            Every test's seed derives from --seed and its ID; a failing test prints the command \
            that reruns it and keeps its events and pcap. More: docs/guides/testing-an-accessory.md.

            Exit status: 0 every applicable test passed, 1 a test failed, 2 usage or profile error, \
            3 environment error.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @OptionGroup(title: "A device the runner did not build")
    var operatorOptions: OperatorOptions

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp("Run only the tests this GLOB selects (repeatable).", valueName: "glob")
    )
    var only: [String] = []

    @Option(
        name: .customLong("skip"),
        help: ArgumentHelp("Leave out the tests this GLOB selects (repeatable).", valueName: "glob")
    )
    var skip: [String] = []

    @Option(help: "Base seed; each test's seed derives from it and the test's ID.")
    var seed: UInt64 = 1

    @Option(help: "Tests to run at once.")
    var jobs: Int = 1

    @Option(help: ArgumentHelp("Run only shard I of N (counting from 1).", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Run each test N times with successive seeds.", valueName: "n"))
    var iterations: Int = 1

    @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write a JSON report.", valueName: "file"))
    var json: String?

    @Option(
        help: ArgumentHelp(
            "Write a self-contained HTML report: failing tests first, their frames as sequence diagrams.",
            valueName: "file"
        )
    )
    var html: String?

    @Option(help: ArgumentHelp("Keep events.jsonl and a pcap for every test here.", valueName: "dir"))
    var evidence: String?

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Switch on an accessory fault (embedded and spawn targets, and socket with --control; repeatable).",
            valueName: "name"
        )
    )
    var faults: [String] = []

    @Option(
        name: .customLong("fault-plan"),
        help: ArgumentHelp(
            "Apply the fault plan in this JSON file to the tests it names (docs/reference/fault-plans.md).",
            valueName: "file"
        )
    )
    var faultPlanPath: String?

    @Option(
        name: .customLong("proposal-shape"),
        help: ArgumentHelp(
            "How the phone lays out every data path proposal (docs/reference/schedules.md).",
            valueName: "shape"
        )
    )
    var proposalShape: NDPProposalShape = .basic

    @OptionGroup var phoneOptions: PhoneOptions

    @Option(
        help: ArgumentHelp(
            "With socket or nl80211 targets: wait up to this long for the accessory's first publish before any "
                + "test (0: do not); none is exit 3, naming what was heard.",
            valueName: "seconds"
        )
    )
    var wait: Double = AccessoryPresence.defaultWaitSeconds

    @OptionGroup var logging: LoggingOptions

    /// Report paths are checked before any test runs: a typo costs exit 2 now, not a run's results.
    func validate() throws {
        try OutputPath.check([("--junit", junit), ("--json", json), ("--html", html)])
        guard wait >= 0 && wait <= 3600 else { throw ValidationError("--wait must be between 0 and 3600 seconds") }
    }

    func run() throws {
        logging.bootstrap()
        guard let (profile, document, path) = try targetOptions.loadProfile(required: true) else { return }
        let operatorAccess = try operatorOptions.access(
            target: targetOptions.target,
            control: targetOptions.control,
            profile: profile
        )
        let target = try targetOptions.makeTarget(
            profile: profile,
            document: document,
            path: path,
            operatorAccess: operatorAccess
        )
        let catalogue = try TestCatalogue(ConformanceSuites.tests(target: target, faults: faults))
        let selection = TestSelection(only: only, skip: skip)
        let parsedShard: Shard?
        do {
            parsedShard = try shard.map { try Shard($0) }
        } catch {
            throw ValidationError("\(error)")
        }
        let faultPlan = try faultPlanPath.map(Self.loadFaultPlan)
        try awaitAccessory(on: target, profile: profile)
        var rerun = [
            Invocation.program(default: "aware-conform"), "run", "--profile", path, "--target", targetOptions.target,
        ]
        if let faultPlanPath { rerun += ["--fault-plan", faultPlanPath] }
        if proposalShape != .basic { rerun += ["--proposal-shape", proposalShape.rawValue] }
        rerun += phoneOptions.rerunArguments
        if let control = targetOptions.control { rerun += ["--control", control] }
        rerun += operatorOptions.rerunArguments
        for fault in faults { rerun += ["--fault", fault] }
        let configuration = RunConfiguration(
            capabilities: target.capabilities,
            baseSeed: seed,
            selection: selection,
            jobs: targetOptions.effectiveJobs(jobs, operatorAccess: operatorAccess),
            shard: parsedShard,
            iterations: iterations,
            evidence: evidence.map { .everyTest(directory: $0) } ?? .default,
            defaultWallLimit: .seconds(target.clock == .virtual ? 60 : 120),
            clock: target.clock,
            rerun: RerunCommand(baseArguments: rerun),
            toolVersion: AwareConform.version,
            faultPlan: faultPlan,
            proposalShape: proposalShape,
            phone: phoneOptions.profile
        )
        let runner: TestRunner
        do {
            runner = try TestRunner(catalogue: catalogue, configuration: configuration)
        } catch {
            var standardError = StandardError()
            print("aware-conform run: \(error)", to: &standardError)
            throw ExitCode(error.exitCode.rawValue)
        }
        // Tests report through the console as they finish.
        let result = runner.run(observer: ConsoleReporter())
        do {
            if let junit { try AtomicFile.write(Array(JUnitReport.render(result).utf8), to: junit) }
            if let json { try AtomicFile.write(Array(JSONReport.render(result).utf8), to: json) }
            if let html { try HTMLReport.write(result, to: html) }
        } catch {
            var standardError = StandardError()
            print("aware-conform run: cannot write a report: \(error)", to: &standardError)
            throw ExitCode(3)
        }
        throw ExitCode(result.exitCode.rawValue)
    }

    /// On a target whose accessory someone else started, waits for it to publish before any test
    /// runs (``AccessoryPresence``): an empty air, another air or another profile's accessory is
    /// an environment error (exit 3) that says what was heard, not a catalogue of failures.
    func awaitAccessory(on target: any AccessoryTarget, profile: AccessoryProfile) throws {
        guard wait > 0, target is SocketTarget || target is RadioTarget else { return }
        var standardError = StandardError()
        let services = profile.services.map(\.name)
        let outcome: AccessoryPresence.Outcome
        do {
            outcome = try AccessoryPresence.wait(on: target, services: services, seconds: wait, seed: seed)
        } catch {
            print("aware-conform run: \(target.name): \(error)", to: &standardError)
            throw ExitCode(RunExitCode.environmentError.rawValue)
        }
        switch outcome {
        case .present(let publisher, let service, let seconds):
            print(
                "aware-conform run: \(service) published by \(publisher) on \(target.name) "
                    + "(heard after \(String(format: "%.1f", seconds)) s)",
                to: &standardError
            )
        case .absent(let heard):
            let advice =
                target is RadioTarget
                ? "Check that the accessory is powered and in range, check --profile, or give it longer with --wait SECONDS."
                : "Start the accessory on this air (accessory-emu --profile FILE --air \(targetOptions.target)), check --profile, "
                    + "or give it longer with --wait SECONDS."
            print(
                "aware-conform run: \(heard.explanation(target: target.name, seconds: wait))\n\(advice)",
                to: &standardError
            )
            throw ExitCode(RunExitCode.environmentError.rawValue)
        }
    }

    /// The plan at `path`; an unreadable or invalid plan is a usage error (exit 2) that says
    /// where.
    static func loadFaultPlan(_ path: String) throws -> FaultPlan {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--fault-plan: cannot read \(path)")
        }
        do {
            return try FaultPlan.parse(data, file: path)
        } catch {
            throw ValidationError("--fault-plan: \(error)")
        }
    }
}

extension NDPProposalShape: ExpressibleByArgument {}
