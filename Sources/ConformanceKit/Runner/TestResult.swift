/// A test's result over all its iterations.
public struct TestResult: Hashable, Sendable {
    public var id: TestID
    public var title: String
    public var tags: [TestTag]
    /// The worst verdict of the iterations (pass < skip < fail < timeout < error); skip when not applicable.
    public var verdict: TestVerdict
    /// Why it was skipped, or what failed first; nil on pass.
    public var message: String?
    public var errorOrigin: ErrorOrigin?
    /// The seed of iteration 1.
    public var seed: UInt64
    /// Empty when the test was skipped as not applicable.
    public var iterations: [IterationResult]
    /// Iterations the runner planned; fewer ran when one timed out or hit an environment error.
    public var plannedIterations: Int
    /// The command that reruns the first failing iteration alone; nil unless the test failed.
    public var rerunCommand: String?
    /// The directory holding the test's evidence, when any was kept.
    public var evidenceDirectory: String?

    public var group: String { id.group }
    public var wallSeconds: Double { iterations.reduce(0) { $0 + $1.wallSeconds } }
    public var virtualSeconds: Double? {
        let values = iterations.compactMap(\.virtualSeconds)
        return values.isEmpty ? nil : values.reduce(0, +)
    }
}
