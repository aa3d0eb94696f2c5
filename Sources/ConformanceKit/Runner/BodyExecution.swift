import Foundation

/// One test body running where it cannot block the run: a blocking body on a thread of its own, an
/// async body as a task on an executor with a thread of its own (``ThreadTaskExecutor``). The runner waits for it up to the wall-clock guard and then stops waiting.
///
/// A thread cannot be killed safely, so an abandoned blocking body keeps its thread until it returns
/// or the process exits; its context is sealed, so nothing it does later reaches the evidence or the
/// reports. Bodies that loop should poll `TestContext.isCancelled`; async bodies are also cancelled.
final class BodyExecution: @unchecked Sendable {
    enum Outcome {
        case returned
        case threw(any Error)
    }

    /// Room for deep simulations; the default thread stack is smaller than the main thread's.
    static let stackSize = 8 << 20

    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Outcome?
    private var task: Task<Void, Never>?

    static func start(_ body: TestBody, context: TestContext) -> BodyExecution {
        let execution = BodyExecution()
        switch body {
        case .blocking(let closure):
            let thread = Thread {
                do {
                    try closure(context)
                    execution.finish(.returned)
                } catch {
                    execution.finish(.threw(error))
                }
            }
            thread.name = "aware-conform \(context.id)"
            thread.stackSize = stackSize
            thread.start()
        case .async(let closure):
            let executor = ThreadTaskExecutor(name: "aware-conform \(context.id)")
            let task = Task.detached(executorPreference: executor) {
                do {
                    try await closure(context)
                    execution.finish(.returned)
                } catch {
                    execution.finish(.threw(error))
                }
                executor.stop()
            }
            execution.lock.withLock { execution.task = task }
        }
        return execution
    }

    private func finish(_ outcome: Outcome) {
        lock.withLock { self.outcome = outcome }
        finished.signal()
    }

    /// The body's outcome, or nil when it did not end within `limit`.
    func wait(limit: Duration) -> Outcome? {
        let (seconds, attoseconds) = limit.components
        let nanoseconds = max(0, min(seconds, Int64(Int32.max))) * 1_000_000_000 + attoseconds / 1_000_000_000
        if finished.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
            return nil
        }
        return lock.withLock { outcome }
    }

    /// Stops waiting for good: an async body is cancelled (a blocking one is left to finish on its own).
    func abandon() {
        lock.withLock { task?.cancel() }
    }
}
