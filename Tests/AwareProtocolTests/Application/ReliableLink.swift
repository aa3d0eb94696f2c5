import AwareCore
import AwareProtocol
import AwareWire

/// A reliable sender and receiver joined by a simulated one-hop link under virtual time: each
/// message takes `delay` (plus `extraDelay` for its transmission number), and `drop` /
/// `duplicate` decide its fate by transmission number, counted per direction from 0.
struct ReliableLink {
    struct InFlight {
        var at: Instant
        var order: Int
        var toReceiver: Bool
        var message: AppMessage
    }

    var sender: ReliableSender
    var receiver: ReliableReceiver
    var delay = Interval.milliseconds(10)
    var dropData: (Int) -> Bool = { _ in false }
    var dropAcks: (Int) -> Bool = { _ in false }
    var duplicateData: (Int) -> Bool = { _ in false }
    var extraDelay: (Int) -> Interval = { _ in .zero }
    var now = Instant.zero
    var timer: Instant?
    var delivered: [[UInt8]] = []
    var failures: [ReliableFailure] = []
    var maximumInFlight = 0
    private var queue: [InFlight] = []
    private var order = 0
    private(set) var dataTransmissions = 0
    private var ackTransmissions = 0

    init(configuration: ReliableConfiguration = .init()) {
        sender = ReliableSender(flowID: 1, configuration: configuration)
        receiver = ReliableReceiver(flowID: 1, receiveBuffer: configuration.receiveBuffer)
    }

    mutating func send(_ payloads: [[UInt8]]) {
        for payload in payloads {
            apply(sender.send(.segment(payload), now: now), fromSender: true)
        }
    }

    /// Runs events in time order until nothing is left or `limit` passes.
    mutating func run(limit: Interval = .seconds(600)) {
        let end = Instant.zero + limit
        while true {
            let next = queue.min { ($0.at, $0.order) < ($1.at, $1.order) }
            if let timerAt = timer, timerAt <= (next?.at ?? end), timerAt <= end {
                now = timerAt
                timer = nil
                apply(sender.timerFired(now: now), fromSender: true)
                continue
            }
            guard let next, next.at <= end else { return }
            queue.removeAll { $0.order == next.order }
            now = next.at
            if next.toReceiver {
                apply(receiver.receive(next.message, now: now), fromSender: false)
            } else {
                apply(sender.receive(next.message, now: now), fromSender: true)
            }
        }
    }

    private mutating func apply(_ actions: [ReliableAction], fromSender: Bool) {
        for action in actions {
            switch action {
            case .transmit(let message):
                if fromSender {
                    let index = dataTransmissions
                    dataTransmissions += 1
                    maximumInFlight = max(maximumInFlight, sender.inFlight)
                    guard !dropData(index) else { continue }
                    enqueue(message, toReceiver: true, after: delay + extraDelay(index))
                    if duplicateData(index) { enqueue(message, toReceiver: true, after: delay + extraDelay(index)) }
                } else {
                    let index = ackTransmissions
                    ackTransmissions += 1
                    guard !dropAcks(index) else { continue }
                    enqueue(message, toReceiver: false, after: delay)
                }
            case .arm(.retransmission, let at): timer = at
            case .cancel(.retransmission): timer = nil
            case .notify(.deliver(.segment(let payload))): delivered.append(payload)
            case .notify(.deliver): break
            case .notify(.failed(let failure)): failures.append(failure)
            }
        }
    }

    private mutating func enqueue(_ message: AppMessage, toReceiver: Bool, after: Interval) {
        queue.append(InFlight(at: now + after, order: order, toReceiver: toReceiver, message: message))
        order += 1
    }
}
