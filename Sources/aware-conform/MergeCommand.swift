import ArgumentParser
import AwareCommandLine
import AwareCore
import ConformanceKit
import Foundation

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the JSON reports of a sharded run into one report.",
        discussion: """
            CI splits the catalogue over parallel jobs with `run --shard I/N --json FILE`; merge joins \
            their JSON reports into the report the unsharded run would have written: every test once, in \
            catalogue order, with the counts and the exit status recomputed.

            CHECKS
              The reports must come from one run: the same tool version, target, profile, --seed, \
            --only/--skip and --iterations, shards I/N of one N, no shard twice and no test in two \
            reports. Anything else is refused with the file and what differs. A missing shard is an \
            error (exit 3): the others are still merged and written, and the report names it among the \
            run's problems, so a lost CI artifact fails the merge instead of passing on fewer tests.

            EXAMPLE
              aware-conform run --profile P.json --shard 1/3 --json s1.json
              (2/3 and 3/3 likewise, in other CI jobs)
              aware-conform merge s1.json s2.json s3.json --json all.json --junit all.xml

            OUTPUT
              --json FILE writes the `run --json` format (docs/reference/reports.md; run.shard is null), --junit \
            FILE the JUnit XML `run --junit` writes, --html FILE the page `run --html` writes (evidence \
            paths in the shards are read relative to the current directory, as the runs wrote them). \
            Without any of them, the summary table is printed.

            Exit status: 0 every merged test passed or was skipped, 1 a test failed, 2 usage error or a \
            report that is unreadable, malformed or from another run, 3 a shard is missing or recorded an \
            environment error.
            """
    )

    @Argument(help: ArgumentHelp("The shards' JSON reports (run --shard I/N --json FILE).", valueName: "shard.json"))
    var reports: [String] = []

    @Option(help: ArgumentHelp("Write the merged JUnit XML report.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the merged JSON report.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the merged HTML report (as run --html).", valueName: "file"))
    var html: String?

    func validate() throws {
        try OutputPath.check([("--junit", junit), ("--json", json), ("--html", html)])
    }

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        var standardError = StandardError()
        let merge: RunReportMerge
        do {
            merge = try RunReportMerge(files: reports)
        } catch {
            print("aware-conform merge: \(error)", to: &standardError)
            throw ExitCode(RunExitCode.usageOrProfileError.rawValue)
        }
        for missing in merge.missingShards { print("aware-conform merge: error: \(missing)", to: &standardError) }
        let result = merge.result
        do {
            if let junit { try AtomicFile.write(Array(JUnitReport.render(result).utf8), to: junit) }
            if let json { try AtomicFile.write(Array(JSONReport.render(result).utf8), to: json) }
            if let html { try HTMLReport.write(result, to: html) }
        } catch {
            print("aware-conform merge: cannot write a report: \(error)", to: &standardError)
            throw ExitCode(RunExitCode.environmentError.rawValue)
        }
        if junit == nil && json == nil && html == nil {
            print(ConsoleFormatter(style: .detect()).summary(result), terminator: "")
        } else {
            let count = result.tests.count
            print(
                "merged \(count) test\(count == 1 ? "" : "s") from \(reports.count) report(s) (exit \(result.exitCode.rawValue))"
            )
        }
        throw ExitCode(result.exitCode.rawValue)
    }
}
