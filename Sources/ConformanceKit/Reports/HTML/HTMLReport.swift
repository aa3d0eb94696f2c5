import AwareCore
import Foundation

/// The run as one self-contained HTML page for people (docs/reference/reports.md, "HTML report"): the summary,
/// failing tests first with their messages, rerun commands, steps and a sequence diagram of each
/// failing test's frames, then the rest. Inline CSS and SVG only: no scripts, no external resources,
/// so the page opens from a CI artifact or a mail attachment as it is.
///
/// The page is also well-formed XML, so tests (and anyone's tooling) can judge it with a strict
/// parser. Everything that came from a test, the accessory or the command line is escaped.
public struct HTMLReport: Sendable {
    public var run: RunResult
    var linker: EvidenceLinker

    /// `pagePath` is where the page will be written: evidence links are relative to it. Relative
    /// evidence paths in `run` are taken relative to `workingDirectory`, as the run wrote them.
    public init(
        run: RunResult,
        pagePath: String,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.run = run
        linker = EvidenceLinker(pagePath: pagePath, workingDirectory: workingDirectory)
    }

    /// Renders and writes the page to `pagePath`.
    public static func write(_ run: RunResult, to pagePath: String) throws {
        try AtomicFile.write(Array(HTMLReport(run: run, pagePath: pagePath).render().utf8), to: pagePath)
    }

    public func render() -> String {
        let summary = HTMLRunSummary(run: run)
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(HTMLText.escape(summary.title))</title>
            <style>
            \(HTMLStyle.css)
            </style>
            </head>
            <body>

            """
        page += summary.html()
        // Failing tests first, then passed, then skipped; each part in ID order.
        page += "<main>\n"
        let failing = run.tests.filter(\.verdict.isFailing)
        let passed = run.tests.filter { $0.verdict == .pass }
        let skipped = run.tests.filter { $0.verdict == .skip }
        for (heading, tests) in [("Failing", failing), ("Passed", passed), ("Skipped", skipped)] where !tests.isEmpty {
            page += "<h2 id=\"\(heading.lowercased())\">\(heading) (\(tests.count))</h2>\n"
            for test in tests { page += HTMLTestSection(test: test, linker: linker).html() }
        }
        if run.tests.isEmpty { page += "<p class=\"muted\">The report holds no tests.</p>\n" }
        return page + "</main>\n</body>\n</html>\n"
    }
}

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
            base = [
                "aware-conform", "run", "--profile", metadata.profilePath, "--target", metadata.target, "--phone",
                metadata.phone,
            ]
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
            ("Phone", metadata.phone),
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

/// Text from the test, the accessory or the command line made safe for the page: element text and
/// attribute values both. The page is also well-formed XML (so an XML parser can judge it), so
/// characters XML forbids become U+FFFD rather than vanish silently.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                // XML 1.0 Char: no C0 controls but tab, newline, return; no U+FFFE/U+FFFF.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// An `id` attribute (and `#fragment`) for a test: its ID as the evidence directory spells it
    /// (`WA_DISC_MF_BV-03`), which has only letters, digits, `_` and `-`.
    static func anchor(_ id: TestID) -> String { "test-" + id.description.replacingOccurrences(of: "/", with: "_") }
}

/// The page's only style sheet, inline. Colours mark verdicts, but every verdict is also written
/// as a word (PASS, FAIL, ...) and failing tests carry a thick left border, so the page reads the
/// same printed in black and white or by someone who does not tell red from green.
enum HTMLStyle {
    static let css = """
        :root { color-scheme: light; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; \
        color: #1b1b1b; background: #fafafa; }
        header.run, main, nav.failing { max-width: 1200px; margin: 0 auto; padding: 12px 24px; }
        header.run { border-bottom: 6px solid #888; background: #fff; }
        header.run.failed { border-bottom-color: #b3261e; }
        header.run.passed { border-bottom-color: #1e7b34; }
        h1 { font-size: 26px; margin: 8px 0; }
        h2 { font-size: 20px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; }
        h3 { font-size: 16px; margin: 0; }
        code, pre { font: 13px/1.4 "DejaVu Sans Mono", ui-monospace, monospace; }
        table.counts { border-collapse: collapse; margin: 8px 0; }
        table.counts td, table.counts th { border: 1px solid #ccc; padding: 4px 12px; text-align: center; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
        pre.cmd { background: #10151c; color: #e8f0f8; padding: 8px 12px; border-radius: 4px; \
        white-space: pre-wrap; word-break: break-all; user-select: all; }
        .verdict { display: inline-block; min-width: 5.5em; text-align: center; font-weight: 700; \
        border-radius: 3px; padding: 0 6px; margin-right: 8px; border: 2px solid; }
        .verdict.pass { color: #1e7b34; } .verdict.fail { color: #b3261e; }
        .verdict.skip { color: #5f6368; } .verdict.error { color: #7b1fa2; } .verdict.timeout { color: #a04f00; }
        section.test { background: #fff; border: 1px solid #ddd; border-left: 4px solid #bbb; margin: 3px 0; \
        padding: 3px 10px; }
        section.test h3 { display: inline; font-size: 14px; } section.test.failing h3 { font-size: 16px; }
        section.test details { display: inline-block; margin-left: 12px; font-size: 13px; }
        section.test details[open] { display: block; margin: 4px 0 0; }
        section.test.failing details { display: block; margin: 8px 0 0; }
        section.test.failing { border-left: 10px solid #b3261e; padding: 12px 16px; margin: 12px 0; }
        section.test.pass { border-left-color: #1e7b34; } section.test.skip { border-left-color: #9aa0a6; }
        section.test.error { border-left-color: #7b1fa2; } section.test.timeout { border-left-color: #a04f00; }
        p.message { font-weight: 600; white-space: pre-wrap; margin: 6px 0; }
        p.reason { color: #444; margin: 4px 0; }
        ol.steps > li { margin: 4px 0; }
        ul.failures { margin: 2px 0; } ul.failures li { white-space: pre-wrap; }
        .missing { border: 2px dashed #b3261e; padding: 6px 10px; background: #fff4f2; }
        .missing::before { content: "MISSING: "; font-weight: 700; }
        .muted { color: #666; }
        nav.failing ul { columns: 2; margin: 4px 0; }
        nav.failing a, a { color: #0b57d0; }
        figure { margin: 8px 0; overflow-x: auto; }
        figcaption { font-size: 13px; color: #444; margin-bottom: 4px; }
        svg.sequence { background: #fff; border: 1px solid #ddd; font: 12px "DejaVu Sans", sans-serif; }
        svg.sequence .lane line { stroke: #9aa0a6; stroke-dasharray: 4 4; }
        svg.sequence .lane-role { font-weight: 700; }
        svg.sequence .lane-address, svg.sequence .time { fill: #555; font: 11px "DejaVu Sans Mono", monospace; }
        svg.sequence .arrow line, svg.sequence .arrow polyline { stroke-width: 1.4; }
        svg.sequence .arrow.beacon .label { fill: #777; }
        svg.sequence .arrow.pairing .label, svg.sequence .arrow.schedule .label { font-weight: 700; }
        svg.sequence .failure-mark line { stroke: #b3261e; stroke-width: 2; stroke-dasharray: 6 3; }
        svg.sequence .failure-mark text { fill: #b3261e; font-weight: 700; }
        div.latency figure { display: inline-block; vertical-align: top; margin: 4px 16px 4px 0; }
        div.latency figcaption { max-width: 640px; }
        svg.histogram { background: #fff; border: 1px solid #ddd; font: 11px "DejaVu Sans", sans-serif; }
        svg.histogram rect.bar { fill: #0b57d0; }
        svg.histogram line { stroke: #555; }
        """
}

/// Turns the evidence paths of a report (relative to the directory the run ran in, or absolute)
/// into links relative to the page, so the page and its evidence directory can be copied or
/// archived together (a CI artifact) and the links still work.
struct EvidenceLinker: Sendable {
    /// Absolute, without a trailing slash.
    var pageDirectory: String
    var workingDirectory: String

    init(pagePath: String, workingDirectory: String) {
        self.workingDirectory = workingDirectory
        let page = Self.absolute(pagePath, workingDirectory: workingDirectory)
        pageDirectory = (page as NSString).deletingLastPathComponent
    }

    static func absolute(_ path: String, workingDirectory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// The `href` of `path`: relative to the page, each segment percent-encoded.
    func href(_ path: String) -> String {
        let target = Self.segments(Self.absolute(path, workingDirectory: workingDirectory))
        let base = Self.segments(pageDirectory)
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let segments = Array(repeating: "..", count: base.count - common) + target[common...].map(Self.encode)
        let relative = segments.joined(separator: "/")
        // "a:b/..." would read as a URL scheme; "./" keeps it a path.
        return relative.isEmpty ? "." : (segments.first?.contains(":") == true ? "./" + relative : relative)
    }

    static func segments(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    static func encode(_ segment: String) -> String {
        // RFC 3986 pchar, ASCII only: everything else is percent-encoded.
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@"
        )
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
