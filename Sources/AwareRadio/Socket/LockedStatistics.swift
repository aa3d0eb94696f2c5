import Foundation

/// The statistics of a ``SocketAir``, counted on the reader thread (malformed datagrams)
/// and on the scheduler thread (everything else), read from anywhere.
///
/// `@unchecked Sendable`: `value` is only touched while `lock` is held.
final class LockedStatistics: @unchecked Sendable {
    private let lock = NSLock()
    private var value = SocketAirStatistics()

    var snapshot: SocketAirStatistics { lock.withLock { value } }

    func count(_ counter: WritableKeyPath<SocketAirStatistics, Int>, by amount: Int = 1) {
        lock.withLock { value[keyPath: counter] += amount }
    }
}
