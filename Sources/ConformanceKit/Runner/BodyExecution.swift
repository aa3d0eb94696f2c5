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

    /// The body's outcome, or nil when it did not end within `limit` plus what `excluded` says
    /// by then: time the body spent waiting for a person or an operator's command
    /// (``TestContext/waitingForOperator(_:)``), which is not the accessory's to answer for.
    func wait(limit: Duration, excluding excluded: () -> Duration = { .zero }) -> Outcome? {
        let started = ContinuousClock.now
        while true {
            let deadline = started + limit + excluded()
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return nil }
            let (seconds, attoseconds) = remaining.components
            let nanoseconds = max(0, min(seconds, Int64(Int32.max))) * 1_000_000_000 + attoseconds / 1_000_000_000
            if finished.wait(timeout: .now() + .nanoseconds(Int(max(1, nanoseconds)))) == .success {
                return lock.withLock { outcome }
            }
        }
    }

    /// Stops waiting for good: an async body is cancelled (a blocking one is left to finish on its own).
    func abandon() {
        lock.withLock { task?.cancel() }
    }
}

/// A task executor with a thread of its own, for async test bodies: they then never wait for a
/// thread of Swift's shared cooperative pool, which blocking bodies and the runner's own waits can
/// fill (on a 2-core CI machine the pool has two threads). Without it an async body could miss its
/// wall-clock guard for want of a thread, not for anything it did.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.withLock {
            jobs.append(unowned)
            condition.signal()
        }
    }

    /// Ends the thread once the jobs already queued have run.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
