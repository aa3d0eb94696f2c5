/// Follows a run as it goes (the console reporter is one). The runner calls these one at a time, and
/// `testFinished` in catalogue order whatever order parallel jobs finish in, so output is the same
/// for `--jobs 1` and `--jobs 8`.
public protocol RunObserver: Sendable {
    func runStarted(_ plan: RunPlan)
    /// `position` counts from 1 up to `total`, the number of tests in the plan.
    func testFinished(_ result: TestResult, position: Int, total: Int)
    func runFinished(_ result: RunResult)
}
