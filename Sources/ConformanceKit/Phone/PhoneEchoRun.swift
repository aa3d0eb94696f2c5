import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio

/// Echo requests the phone sends on one data path, as `ping` does: at a steady rate (`ping -i`),
/// or keeping a window of requests outstanding for a while (`ping -f`, which sends the next
/// request when a reply comes). Standard traffic every IPv6 stack answers (RFC 4443 4.1), so
/// the round trip, its regularity and what the link carries can be measured against any
/// accessory. The replies are the host's ``IPv6Host/echoes``; the run keeps its sequence numbers.
public final class PhoneEchoRun {
    public enum Pattern: Hashable, Sendable {
        /// `count` requests, one every 1/`rateHz` s.
        case steady(rateHz: Double, count: Int)
        /// `window` requests outstanding for `seconds`; a request unanswered for
        /// ``PhoneEchoRun/lossTimeout`` counts as lost and is replaced.
        case flood(window: Int, seconds: Double)
    }

    public let link: DataLinkID
    public let pattern: Pattern
    public let size: Int
    public let category: AccessCategory
    private unowned let host: IPv6Host
    private var nextSequence: UInt16
    /// Sequence numbers this run sent, in order.
    public private(set) var sequences: [UInt16] = []
    /// Sent and not yet answered (flood): sequence and when it went.
    private var outstanding: [UInt16: Instant] = [:]
    public private(set) var startedAt: Instant?
    public private(set) var finishedSendingAt: Instant?
    private var timer: ScheduledWork?
    private var stopped = false

    /// A request unanswered this long is lost (the window moves on).
    public static let lossTimeout = Interval.seconds(1)

    init(host: IPv6Host, link: DataLinkID, pattern: Pattern, size: Int, category: AccessCategory, firstSequence: UInt16)
    {
        self.host = host
        self.link = link
        self.pattern = pattern
        self.size = size
        self.category = category
        nextSequence = firstSequence
    }

    /// The sequence number the next run on this data path starts from.
    var sequenceAfter: UInt16 { nextSequence }

    /// The data of request `sequence`: a pattern that changes with the sequence, so that a
    /// reply carrying another request's data is told apart.
    private func data(_ sequence: UInt16) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: Int(sequence) &+ $0) }
    }

    func start() {
        startedAt = host.now
        switch pattern {
        case .steady(let rate, let count):
            sendSteady(remaining: count, period: .seconds(1 / max(rate, 0.001)))
        case .flood(let window, let seconds):
            for _ in 0..<max(1, window) { sendNext() }
            timer = host.scheduler.schedule(after: .milliseconds(50)) { [weak self] in self?.sweep(until: seconds) }
        }
    }

    private func sendNext() {
        let sequence = nextSequence
        nextSequence &+= 1
        sequences.append(sequence)
        outstanding[sequence] = host.now
        host.sendEchoRequest(on: link, sequence: sequence, data: data(sequence), category: category)
    }

    private func sendSteady(remaining: Int, period: Interval) {
        guard !stopped, remaining > 0 else {
            finishedSendingAt = host.now
            return
        }
        sendNext()
        outstanding.removeAll()
        timer = host.scheduler.schedule(after: period) { [weak self] in
            self?.sendSteady(remaining: remaining - 1, period: period)
        }
    }

    /// Replaces requests lost past ``lossTimeout``, until the flood's time is up.
    private func sweep(until seconds: Double) {
        guard !stopped, let startedAt else { return }
        if host.now - startedAt >= .seconds(seconds) {
            finishedSendingAt = host.now
            return
        }
        let now = host.now
        for (sequence, sentAt) in outstanding where now - sentAt >= Self.lossTimeout {
            outstanding[sequence] = nil
            sendNext()
        }
        timer = host.scheduler.schedule(after: .milliseconds(50)) { [weak self] in self?.sweep(until: seconds) }
    }

    /// A reply to one of this run's requests: a flood sends the next one.
    func replied(_ exchange: EchoExchange) {
        guard outstanding.removeValue(forKey: exchange.sequence) != nil, case .flood(_, let seconds) = pattern,
            !stopped, let startedAt, host.now - startedAt < .seconds(seconds)
        else { return }
        sendNext()
    }

    func stop() {
        stopped = true
        if let timer { host.scheduler.cancel(timer) }
        if finishedSendingAt == nil { finishedSendingAt = host.now }
    }

    public var finishedSending: Bool { finishedSendingAt != nil }

    /// What became of this run's requests, in the order they were sent.
    public var exchanges: [EchoExchange] {
        let mine = Set(sequences)
        return (host.echoes[link] ?? []).filter { mine.contains($0.sequence) && $0.sentAt >= (startedAt ?? $0.sentAt) }
    }
}
