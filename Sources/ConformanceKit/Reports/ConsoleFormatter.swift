import AwareCore
import Foundation

/// The text of the console view: a banner, one progress line per test (plus details for tests that
/// did not pass), and a summary table. Pure functions of the run, so tests read exactly what people see.
public struct ConsoleFormatter: Sendable {
    public var style: ConsoleStyle
    /// How many recorded failures a failing test lists before "... and N more".
    public var failuresShown = 5

    public init(style: ConsoleStyle = .plain) {
        self.style = style
    }

    static let detailIndent = String(repeating: " ", count: 9)

    public func banner(_ plan: RunPlan) -> String {
        let metadata = plan.metadata
        let count = plan.entries.count
        var parts = ["\(count) test\(count == 1 ? "" : "s")", "target \(metadata.target)"]
        parts.append("profile \(metadata.profilePath)")
        parts.append("phone \(metadata.phone)")
        parts.append("seed \(metadata.baseSeed)")
        if metadata.jobs > 1 { parts.append("jobs \(metadata.jobs)") }
        if metadata.iterations > 1 { parts.append("iterations \(metadata.iterations)") }
        if let shard = metadata.shard { parts.append("shard \(shard)") }
        var text = "aware-conform \(metadata.toolVersion): " + parts.joined(separator: ", ") + "\n"
        if count == 0 {
            text += "This shard holds no tests of the selection.\n"
        }
        return text
    }

    /// `PASS     WA/DISC/MF/BV-03  Title  (0.012 s, 2.048 s virtual)`, and for tests that did not pass,
    /// what went wrong, the seed, where the evidence is and the command that reruns it.
    public func progress(_ result: TestResult, position: Int, total: Int) -> String {
        let width = String(total).count
        let counter = String(repeating: " ", count: width - String(position).count) + "\(position)/\(total)"
        let label = style.paint(result.verdict.label.padding(toLength: 7, withPad: " ", startingAt: 0), result.verdict)
        var line = "[\(counter)] \(label)  \(result.id)  \(result.title)"
        if result.verdict == .skip, result.iterations.isEmpty {
            line += "  (\(TerminalText.escaped(result.message ?? "skipped")))"
            return line + "\n"
        }
        line += "  (" + Self.seconds(result.wallSeconds)
        if let virtual = result.virtualSeconds { line += ", \(Self.seconds(virtual)) virtual" }
        line += ")\n"
        guard result.verdict != .pass else { return line }
        // A message may quote what the accessory sent (a TXT value, a name): escaped for the
        // terminal (TerminalText), a line at a time so that a message of several lines stays so.
        return line
            + details(result).flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
            .map { Self.detailIndent + TerminalText.escaped(String($0)) + "\n" }.joined()
    }

    func details(_ result: TestResult) -> [String] {
        var lines: [String] = []
        let failing = result.iterations.filter { $0.verdict != .pass }
        if result.iterations.count > 1 {
            let counts = TestVerdict.allCases.compactMap { verdict -> String? in
                let count = result.iterations.count { $0.verdict == verdict }
                return count > 0 ? "\(count) \(verdict.rawValue)" : nil
            }
            lines.append(
                "iterations: \(failing.count) of \(result.iterations.count) did not pass "
                    + "(\(counts.joined(separator: ", ")))"
                    + (result.iterations.count < result.plannedIterations
                        ? "; stopped after \(result.iterations.count) of \(result.plannedIterations)" : "")
            )
        }
        for iteration in failing {
            let prefix = result.iterations.count > 1 ? "iteration \(iteration.iteration): " : ""
            if iteration.verdict != .fail || iteration.failures.isEmpty {
                lines.append(prefix + (iteration.message ?? iteration.verdict.rawValue))
            }
            for failure in iteration.failures.prefix(failuresShown) {
                lines.append(prefix + "\(failure.location): \(failure.message)")
            }
            if iteration.failures.count > failuresShown {
                lines.append(prefix + "... and \(iteration.failures.count - failuresShown) more")
            }
        }
        guard result.verdict.isFailing else { return lines }
        lines.append("seed \(result.seed)")
        if let directory = result.evidenceDirectory { lines.append("evidence: \(directory)") }
        if let rerun = result.rerunCommand { lines.append("rerun: \(rerun)") }
        return lines
    }

    /// Counts per verdict and per group, the total time and the outcome.
    public func summary(_ run: RunResult) -> String {
        let columns = ["tests"] + TestVerdict.allCases.map(\.rawValue)
        var rows: [(String, [Int])] = run.groups.map { group in
            let tests = run.tests.filter { $0.group == group }
            return (
                group, [tests.count] + TestVerdict.allCases.map { verdict in tests.count { $0.verdict == verdict } }
            )
        }
        rows.append(("all", [run.tests.count] + TestVerdict.allCases.map { run.count($0) }))
        let nameWidth = max(5, rows.map(\.0.count).max() ?? 0)
        let widths = columns.map { max($0.count, 5) }
        func row(_ name: String, _ cells: [String]) -> String {
            name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + zip(cells, widths).map { cell, width in
                    "  " + String(repeating: " ", count: max(0, width - cell.count)) + cell
                }.joined() + "\n"
        }
        var text = "\n" + style.bold(row("group", columns).trimmingCharacters(in: .newlines)) + "\n"
        for (name, counts) in rows { text += row(name, counts.map(String.init)) }
        let metadata = run.metadata
        text += "\n\(run.tests.count) test\(run.tests.count == 1 ? "" : "s") in \(Self.seconds(run.wallSeconds))"
        text += " (seed \(metadata.baseSeed)" + (metadata.shard.map { ", shard \($0)" } ?? "") + ")\n"
        for problem in run.problems { text += "problem: \(problem)\n" }
        if run.tests.contains(where: { $0.evidenceDirectory != nil }) {
            text +=
                "evidence (\(metadata.evidenceForEveryTest ? "every test" : "failing tests")): "
                + "\(metadata.evidenceDirectory)\n"
        }
        let exit = run.exitCode
        let verdict: String
        switch exit {
        case .passed: verdict = style.paint("PASSED", .pass)
        case .testsFailed: verdict = style.paint("FAILED", .fail)
        case .environmentError: verdict = style.paint("ENVIRONMENT ERROR", .error)
        case .usageOrProfileError: verdict = "USAGE ERROR"
        }
        text += "\(verdict) (exit \(exit.rawValue))\n"
        return text
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}

/// Whether the console paints verdicts: only on a terminal, and never when NO_COLOR is set to anything
/// but the empty string (no-color.org), so logs captured by CI stay plain text.
public struct ConsoleStyle: Hashable, Sendable {
    public var colour: Bool

    public init(colour: Bool) {
        self.colour = colour
    }

    public static let plain = ConsoleStyle(colour: false)

    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> ConsoleStyle {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return ConsoleStyle(colour: isTerminal && !noColour)
    }

    func paint(_ text: String, _ verdict: TestVerdict) -> String {
        guard colour else { return text }
        let code =
            switch verdict {
            case .pass: "32"
            case .fail: "31"
            case .skip: "33"
            case .error: "35"
            case .timeout: "1;31"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
}

/// Prints the console view as the run goes: the banner, a line per test in catalogue order, the summary.
public struct ConsoleReporter: RunObserver {
    public let formatter: ConsoleFormatter
    private let write: @Sendable (String) -> Void

    /// `write` receives whole lines; the default writes to standard output, unbuffered.
    public init(
        style: ConsoleStyle = .detect(),
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }
    ) {
        formatter = ConsoleFormatter(style: style)
        self.write = write
    }

    public func runStarted(_ plan: RunPlan) { write(formatter.banner(plan)) }

    public func testFinished(_ result: TestResult, position: Int, total: Int) {
        write(formatter.progress(result, position: position, total: total))
    }

    public func runFinished(_ result: RunResult) { write(formatter.summary(result)) }
}

/// The text of `aware-conform list`: every test with its ID, group, tags and title, and when a profile
/// was given, whether it applies and why not.
public enum CatalogueListingFormatter {
    public static func render(_ entries: [CatalogueEntry]) -> String {
        let idWidth = max(2, entries.map { $0.test.id.description.count }.max() ?? 0)
        let groupWidth = max(5, entries.map { $0.test.group.count }.max() ?? 0)
        let withProfile = entries.contains { $0.applicability != nil }
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var text = pad("ID", idWidth) + "  " + pad("GROUP", groupWidth) + (withProfile ? "  APPLIES" : "") + "  TITLE\n"
        for entry in entries {
            let test = entry.test
            var line = pad(test.id.description, idWidth) + "  " + pad(test.group, groupWidth)
            if let applicability = entry.applicability {
                line += "  " + pad(applicability.isApplicable ? "yes" : "no", 7)
            }
            line += "  " + test.title
            if !test.tags.isEmpty { line += "  [" + test.tags.map(\.name).joined(separator: ", ") + "]" }
            text += line + "\n"
            if let reason = entry.applicability?.reason {
                text += String(repeating: " ", count: idWidth + 2) + "not applicable: \(reason)\n"
            }
        }
        let applicable = entries.count { $0.applicability?.isApplicable ?? false }
        text += "\n\(entries.count) test\(entries.count == 1 ? "" : "s")"
        text += withProfile ? ", \(applicable) applicable to the profile\n" : "\n"
        return text
    }
}
