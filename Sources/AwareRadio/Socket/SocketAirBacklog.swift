import AwareCore
import Foundation

/// Datagrams for peers whose queue was full, sent from a thread of their own, so that the
/// scheduler's thread never waits for a receiver (issue 21, finding 4).
///
/// A Unix socket's queue holds 11 datagrams (`net.unix.max_dgram_qlen` and one), far fewer than
/// a radio's receiver keeps up with: a peer that is reading but was not scheduled for a moment
/// would lose bursts a radio delivers (bulk goodput fell to 2.26 Mb/s against a 4.05 Mb/s floor
/// on a loaded CI machine when they were dropped). So a datagram that finds the queue full waits
/// here instead, in order: once a peer has a backlog, its later datagrams join it, so none
/// overtakes another. The thread sends each with the socket's timeout. A peer that lets that
/// timeout run out is not reading (stopped, or a socket that never reads): its backlog is dropped
/// and ``stalled`` hears of it, and the air stops queueing for it until it takes a datagram. At
/// most ``maximumPerPeer`` datagrams wait per peer; one more is refused, as a full queue would.
///
/// `@unchecked Sendable`: `queue`, `pending` and `stopped` are only touched while `condition`'s
/// lock is held.
final class SocketAirBacklog: @unchecked Sendable {
    static let maximumPerPeer = 64

    private let socket: UnixDatagramSocket
    private let condition = NSCondition()
    private var queue: [(peer: [UInt8], bytes: [UInt8])] = []
    private var pending: [[UInt8]: Int] = [:]
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// A datagram from the backlog was sent: the peer is reading.
    private let sent: @Sendable ([UInt8]) -> Void
    /// A peer let a wait run out; `dropped` datagrams of its backlog were lost with the one waited on.
    private let stalled: @Sendable ([UInt8], _ dropped: Int) -> Void

    init(
        socket: UnixDatagramSocket,
        sent: @escaping @Sendable ([UInt8]) -> Void,
        stalled: @escaping @Sendable ([UInt8], Int) -> Void
    ) {
        self.socket = socket
        self.sent = sent
        self.stalled = stalled
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "SocketAir backlog"
        thread.start()
    }

    /// Whether `peer` has datagrams waiting here: a later one must wait behind them.
    func isBacklogged(_ peer: [UInt8]) -> Bool {
        condition.withLock { pending[peer] != nil }
    }

    /// Datagrams waiting for `peer`.
    func count(for peer: [UInt8]) -> Int {
        condition.withLock { pending[peer] ?? 0 }
    }

    /// Queues `bytes` for `peer`; false (nothing queued) when its backlog is full or the backlog stopped.
    func enqueue(_ bytes: [UInt8], for peer: [UInt8]) -> Bool {
        condition.withLock {
            guard !stopped, pending[peer, default: 0] < Self.maximumPerPeer else { return false }
            queue.append((peer, bytes))
            pending[peer, default: 0] += 1
            condition.signal()
            return true
        }
    }

    /// Ends the thread once the datagram it is sending (if any) is done; what waits is dropped.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
        finished.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped {
                condition.unlock()
                return
            }
            let (peer, bytes) = queue.removeFirst()
            condition.unlock()
            let result = socket.send(bytes, to: peer, waiting: true)
            var dropped = 0
            condition.withLock {
                if result == .busy {
                    dropped = pending[peer, default: 1] - 1
                    queue.removeAll { $0.peer == peer }
                    pending[peer] = nil
                } else if let left = pending[peer] {
                    pending[peer] = left > 1 ? left - 1 : nil
                }
            }
            switch result {
            case .sent: sent(peer)
            case .busy: stalled(peer, dropped)
            case .refused, .missing, .sendBufferFull, .failed: break
            }
        }
    }
}
