import Dispatch

/// Carries a ``WallClockScheduler/sync(_:)`` body to the executor and its result back.
///
/// `@unchecked Sendable`: the body and result cross threads exactly once each, and the
/// caller blocks in ``result()`` for the whole time the executor uses them, so they are
/// never touched by two threads at once (the same argument as `DispatchQueue.sync`).
final class SyncHandoff<T, E: Error>: @unchecked Sendable {
    /// Dropped before signalling: `withoutActuallyEscaping` checks that no reference to the
    /// body outlives the wait, and the executor may still hold this handoff a moment longer.
    private var body: (() throws(E) -> T)?
    private var outcome: Result<T, E>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws(E) -> T) {
        self.body = body
    }

    func run() {
        outcome = execute()
        done.signal()
    }

    private func execute() -> Result<T, E>? {
        guard let work = body else { return nil }
        body = nil
        do throws(E) {
            return .success(try work())
        } catch {
            return .failure(error)
        }
    }

    func result() throws(E) -> T {
        done.wait()
        guard let outcome else { preconditionFailure("Handoff signalled without an outcome") }
        return try outcome.get()
    }
}
