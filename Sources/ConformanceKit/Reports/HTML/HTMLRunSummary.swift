import Foundation

/// The top of the page: the outcome in one line, the counts, what ran against what, the command
/// that reruns the whole run, the bench's own problems, and links to each failing test.
struct HTMLRunSummary {
    var run: RunResult

    var outcome: String {
        let failing = run.tests.count(where: \.verdict.isFailing)
        switch run.exitCode {
        case .passed: return "PASSED: \(run.tests.count) tests, none failing"
        case .environmentError:
            return "ENVIRONMENT ERROR: the bench broke; \(failing) of \(run.tests.count) tests failing"
        case .testsFailed, .usageOrProfileError: return "FAILED: \(failing) of \(run.tests.count) tests failing"
        }
    }

    var title: String { "aware-conform \(outcome) (\(run.metadata.profilePath))" }

    /// The run's own command line: a failing test's rerun command up to its seed carries the
    /// target, profile and faults as given; without one, the report's fields say enough.
    var rerunCommand: String {
        let metadata = run.metadata
        var base: String
        if let rerun = run.tests.lazy.compactMap(\.rerunCommand).first, let cut = rerun.range(of: " --seed ") {
            base = String(rerun[..<cut.lowerBound])
        } else {
            base = ["aware-conform", "run", "--profile", metadata.profilePath, "--target", metadata.target]
                .map(RerunCommand.shellQuoted).joined(separator: " ")
        }
        var arguments = ["--seed", String(metadata.baseSeed)]
        for pattern in metadata.only { arguments += ["--only", pattern] }
        for pattern in metadata.skip { arguments += ["--skip", pattern] }
        if metadata.iterations != 1 { arguments += ["--iterations", String(metadata.iterations)] }
        return base + " " + arguments.map(RerunCommand.shellQuoted).joined(separator: " ")
    }

    func html() -> String {
        let metadata = run.metadata
        let state = run.exitCode == .passed ? "passed" : "failed"
        var out = "<header class=\"run \(state)\">\n<h1>\(HTMLText.escape(outcome))</h1>\n"
        out += "<table class=\"counts\"><tr><th>tests</th>"
        for verdict in TestVerdict.allCases { out += "<th>\(verdict.label)</th>" }
        out += "</tr><tr><td>\(run.tests.count)</td>"
        for verdict in TestVerdict.allCases {
            out += "<td class=\"count-\(verdict.rawValue)\">\(run.count(verdict))</td>"
        }
        out += "</tr></table>\n<dl class=\"facts\">\n"
        var facts: [(String, String)] = [
            ("Profile", metadata.profilePath),
            ("Target", metadata.target),
            ("Seed", String(metadata.baseSeed)),
            ("Duration", String(format: "%.1f s", run.wallSeconds)),
            ("Started", ReportTime.iso8601(metadata.startedAt)),
            ("Exit code", String(run.exitCode.rawValue)),
            ("Run ID", metadata.runID),
            ("Tool", "aware-conform \(metadata.toolVersion)"),
        ]
        if metadata.iterations != 1 { facts.append(("Iterations", String(metadata.iterations))) }
        if let shard = metadata.shard { facts.append(("Shard", shard.description)) }
        if !metadata.only.isEmpty { facts.append(("Only", metadata.only.joined(separator: " "))) }
        if !metadata.skip.isEmpty { facts.append(("Skip", metadata.skip.joined(separator: " "))) }
        facts.append(("Evidence", metadata.evidenceDirectory))
        for (name, value) in facts { out += "<dt>\(name)</dt><dd>\(HTMLText.escape(value))</dd>\n" }
        out += "</dl>\n<p>Rerun the whole run:</p>\n"
        out += "<pre class=\"cmd\"><code>\(HTMLText.escape(rerunCommand))</code></pre>\n"
        if !run.problems.isEmpty {
            out += "<h2>Problems of the bench</h2>\n<ul class=\"problems\">\n"
            for problem in run.problems { out += "<li class=\"missing\">\(HTMLText.escape(problem))</li>\n" }
            out += "</ul>\n"
        }
        out += "</header>\n"
        let failing = run.tests.filter(\.verdict.isFailing)
        if !failing.isEmpty {
            out += "<nav class=\"failing\"><h2>Failing tests</h2><ul>\n"
            for test in failing {
                out += "<li><a href=\"#\(HTMLText.anchor(test.id))\"><span class=\"verdict \(test.verdict.rawValue)\">"
                out += "\(test.verdict.label)</span><code>\(HTMLText.escape(test.id.description))</code></a></li>\n"
            }
            out += "</ul></nav>\n"
        }
        return out
    }
}
