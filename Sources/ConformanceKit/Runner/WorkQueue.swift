import Foundation

/// Hands out test indices to the worker threads, each exactly once.
final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var next = 0

    init(count: Int) {
        self.count = count
    }

    func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}
