import Foundation

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
