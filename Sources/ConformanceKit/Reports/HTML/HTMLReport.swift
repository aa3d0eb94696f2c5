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
        try HTMLReport(run: run, pagePath: pagePath).render().write(toFile: pagePath, atomically: true, encoding: .utf8)
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
