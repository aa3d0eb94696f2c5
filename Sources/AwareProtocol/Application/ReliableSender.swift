import AwareCore
import AwareWire

/// The sending half of a reliable flow (Multipeer "reliable"): numbers segments, keeps up to
/// `window` of them in flight, and retransmits the oldest on timeout (RFC 6298 5.4) until a
/// cumulative ack covers it or `maximumRetransmissions` timeouts in a row declare the link lost.
///
/// One timer serves the flow (RFC 6298 5.1-5.7). Round trips are measured only on segments sent
/// once (Karn's rule, RFC 6298 3), and the newest segment an ack covers gives the sample.
public struct ReliableSender: Sendable {
    struct Outstanding: Hashable, Sendable {
        var sequence: UInt32
        var body: AppMessageBody
        var lastSentAt: Instant
        var transmissions: Int
    }

    public let flowID: UInt16
    public let configuration: ReliableConfiguration
    public private(set) var timeout: RetransmissionTimeout
    /// The sequence number the next new segment gets.
    public private(set) var nextSequence: UInt32
    public private(set) var failure: ReliableFailure?
    /// Segments sent, retransmissions included.
    public private(set) var transmissions = 0
    public private(set) var retransmissions = 0
    private var outstanding: [Outstanding] = []
    private var queue: [AppMessageBody] = []
    /// When the retransmission timer expires; nil while it is not armed.
    public private(set) var timerDeadline: Instant?
    private var timeoutsInARow = 0

    public init(flowID: UInt16, configuration: ReliableConfiguration = .init(), initialSequence: UInt32 = 0) {
        self.flowID = flowID
        self.configuration = configuration
        self.timeout = RetransmissionTimeout(configuration: configuration)
        self.nextSequence = initialSequence
    }

    /// Segments sent and not yet acknowledged.
    public var inFlight: Int { outstanding.count }
    /// Bodies waiting for room in the window.
    public var queued: Int { queue.count }
    /// How many more bodies can go out at once without queueing; a producer that generates data
    /// on demand asks this instead of queueing everything.
    public var availableWindow: Int {
        failure == nil ? max(0, configuration.window - outstanding.count - queue.count) : 0
    }
    /// Everything handed over has been acknowledged.
    public var isIdle: Bool { outstanding.isEmpty && queue.isEmpty }

    /// Sends `body` now if the window allows, else queues it. Bodies of unreliable kinds
    /// (datagram, ack) are a programming error.
    public mutating func send(_ body: AppMessageBody, now: Instant) -> [ReliableAction] {
        precondition(body.kind.isReliable, "\(body.kind.name) messages do not travel on a reliable flow")
        guard failure == nil else { return [] }
        queue.append(body)
        return flush(now: now)
    }

    /// Handles an ack of this flow; other messages are ignored.
    public mutating func receive(_ message: AppMessage, now: Instant) -> [ReliableAction] {
        guard failure == nil, message.flowID == flowID, message.kind == .ack else { return [] }
        let acknowledged = message.sequence
        let base = outstanding.first?.sequence ?? nextSequence
        // An ack that covers nothing new (a duplicate) or covers what was never sent is ignored.
        guard acknowledged &- base &- 1 < nextSequence &- base else { return [] }
        let covered = outstanding.prefix { $0.sequence &- base < acknowledged &- base }
        if let newest = covered.last(where: { $0.transmissions == 1 }) {
            timeout.sample(now - newest.lastSentAt)
        }
        outstanding.removeFirst(covered.count)
        timeoutsInARow = 0
        var actions = flush(now: now)
        if outstanding.isEmpty {
            timerDeadline = nil
            actions.append(.cancel(.retransmission))
        } else {
            actions.append(arm(now: now))
        }
        return actions
    }

    /// The retransmission timer fired. A stale firing (before the current deadline) is ignored.
    public mutating func timerFired(now: Instant) -> [ReliableAction] {
        guard failure == nil, let deadline = timerDeadline, now >= deadline, var oldest = outstanding.first else {
            return []
        }
        timeoutsInARow += 1
        guard timeoutsInARow <= configuration.maximumRetransmissions else {
            let lost = ReliableFailure.linkLost(sequence: oldest.sequence, transmissions: oldest.transmissions)
            failure = lost
            timerDeadline = nil
            queue.removeAll()
            return [.notify(.failed(lost))]
        }
        oldest.transmissions += 1
        oldest.lastSentAt = now
        outstanding[0] = oldest
        transmissions += 1
        retransmissions += 1
        timeout.backOff()
        return [.transmit(message(oldest)), arm(now: now)]
    }

    private mutating func flush(now: Instant) -> [ReliableAction] {
        var actions: [ReliableAction] = []
        while outstanding.count < configuration.window, !queue.isEmpty {
            let segment = Outstanding(
                sequence: nextSequence,
                body: queue.removeFirst(),
                lastSentAt: now,
                transmissions: 1
            )
            nextSequence &+= 1
            outstanding.append(segment)
            transmissions += 1
            actions.append(.transmit(message(segment)))
        }
        if timerDeadline == nil, !outstanding.isEmpty {
            actions.append(arm(now: now))
        }
        return actions
    }

    private mutating func arm(now: Instant) -> ReliableAction {
        let deadline = now + timeout.timeout
        timerDeadline = deadline
        return .arm(.retransmission, at: deadline)
    }

    private func message(_ segment: Outstanding) -> AppMessage {
        AppMessage(
            flowID: flowID,
            sequence: segment.sequence,
            sentAt: segment.lastSentAt.nanoseconds,
            body: segment.body
        )
    }
}

/// The retransmission timeout estimator of RFC 6298 section 2, with the back-off of 5.5.
public struct RetransmissionTimeout: Hashable, Sendable {
    public private(set) var smoothedRTT: Interval?
    public private(set) var rttVariation: Interval?
    /// The current RTO, bounded by the configuration.
    public private(set) var timeout: Interval
    private let minimum: Interval
    private let maximum: Interval
    private let granularity: Interval

    public init(configuration: ReliableConfiguration) {
        minimum = configuration.minimumTimeout
        maximum = configuration.maximumTimeout
        granularity = configuration.clockGranularity
        timeout = Self.clamp(configuration.initialTimeout, minimum, maximum)
    }

    /// A round-trip measurement R of a segment sent once (Karn: never of a retransmission).
    public mutating func sample(_ rtt: Interval) {
        let r = max(rtt, .zero)
        if let srtt = smoothedRTT, let rttvar = rttVariation {
            // 2.3: RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|, then SRTT <- 7/8 SRTT + 1/8 R'.
            // Both are non-negative, so the difference cannot overflow.
            let difference = abs(srtt.nanoseconds - r.nanoseconds)
            rttVariation = Interval(nanoseconds: (3 * rttvar.nanoseconds + difference) / 4)
            smoothedRTT = Interval(nanoseconds: (7 * srtt.nanoseconds + r.nanoseconds) / 8)
        } else {
            // 2.2: SRTT <- R, RTTVAR <- R/2.
            smoothedRTT = r
            rttVariation = Interval(nanoseconds: r.nanoseconds / 2)
        }
        if let srtt = smoothedRTT, let rttvar = rttVariation {
            // 2.2/2.3: RTO <- SRTT + max(G, K*RTTVAR), K = 4.
            timeout = Self.clamp(srtt + max(granularity, rttvar * 4), minimum, maximum)
        }
    }

    /// 5.5: after a timeout, RTO <- RTO * 2 (up to the maximum).
    public mutating func backOff() {
        timeout = Self.clamp(timeout * 2, minimum, maximum)
    }

    private static func clamp(_ value: Interval, _ low: Interval, _ high: Interval) -> Interval {
        min(max(value, low), high)
    }
}
