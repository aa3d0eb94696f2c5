import Foundation

/// Gathers results from the workers and hands them to the observer in catalogue order: a result is
/// passed on as soon as every test before it has finished.
final class ResultCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let observer: (any RunObserver)?
    private var results: [TestResult?]
    private var nextToReport = 0
    private var problems: [String] = []

    init(count: Int, observer: (any RunObserver)?) {
        results = Array(repeating: nil, count: count)
        self.observer = observer
    }

    func deliver(_ result: TestResult, at index: Int, problems newProblems: [String]) {
        lock.withLock {
            results[index] = result
            problems += newProblems
            while nextToReport < results.count, let ready = results[nextToReport] {
                nextToReport += 1
                observer?.testFinished(ready, position: nextToReport, total: results.count)
            }
        }
    }

    var collected: (results: [TestResult], problems: [String]) {
        lock.withLock { (results.compactMap { $0 }, problems) }
    }
}
