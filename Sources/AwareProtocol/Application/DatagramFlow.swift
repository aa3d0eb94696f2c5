import AwareCore
import AwareWire

/// One unreliable flow (Multipeer "unreliable"; telemetry): the sender numbers and timestamps
/// each datagram; the receiver delivers what arrives in time and counts what did not.
///
/// Loss is a gap in the sequence numbers; a datagram that fills an earlier gap is counted as
/// reordered instead of lost. A datagram older than `deadline` when it arrives is dropped as
/// late: for telemetry a stale value is worse than none. Sequence numbers are 32 bits and do
/// not wrap in any run this bench makes (at 1000 datagrams/s, 49 days).
public struct DatagramFlow: Sendable {
    public var flowID: UInt16
    /// Arrivals older than this are dropped; nil delivers everything.
    public var deadline: Interval?
    /// How far behind the highest sequence seen a datagram is still recognised as a duplicate.
    public static let duplicateWindow: UInt32 = 1024

    public private(set) var nextSequence: UInt32 = 0
    public private(set) var statistics = DatagramStatistics()
    private var highestReceived: UInt32?
    private var recentlyReceived: Set<UInt32> = []

    public init(flowID: UInt16, deadline: Interval? = nil) {
        self.flowID = flowID
        self.deadline = deadline
    }

    /// The next datagram to send.
    public mutating func send(_ payload: [UInt8], now: Instant) -> AppMessage {
        defer {
            nextSequence &+= 1
            statistics.sent += 1
        }
        return AppMessage(flowID: flowID, sequence: nextSequence, sentAt: now.nanoseconds, body: .datagram(payload))
    }

    /// What becomes of a received message. Messages of other flows or kinds are ignored.
    public mutating func receive(_ message: AppMessage, now: Instant) -> DatagramDelivery {
        guard message.flowID == flowID, case .datagram(let payload) = message.body else { return .ignored }
        let sequence = message.sequence
        let latency = now - Instant(nanoseconds: message.sentAt)
        if recentlyReceived.contains(sequence) {
            statistics.duplicates += 1
            return .duplicate(sequence: sequence)
        }
        if let highest = highestReceived, sequence <= highest {
            guard highest - sequence < Self.duplicateWindow else {
                statistics.duplicates += 1
                return .duplicate(sequence: sequence)
            }
            statistics.reordered += 1
            statistics.lost -= 1
        } else {
            let expected = highestReceived.map { $0 &+ 1 } ?? 0
            statistics.lost += Int(sequence - expected)
            highestReceived = sequence
            // Pruned once it holds two windows, not on every datagram: a sequence number
            // older than the window counts as a duplicate whether or not it is still held.
            if recentlyReceived.count >= 2 * Int(Self.duplicateWindow) {
                recentlyReceived = recentlyReceived.filter { sequence - $0 < Self.duplicateWindow }
            }
        }
        recentlyReceived.insert(sequence)
        statistics.received += 1
        if let deadline, latency > deadline {
            statistics.late += 1
            return .late(sequence: sequence, latency: latency)
        }
        statistics.delivered += 1
        return .delivered(payload, sequence: sequence, latency: latency)
    }
}

/// What a ``DatagramFlow`` did with a received message.
public enum DatagramDelivery: Hashable, Sendable {
    /// Hand the payload to the application; `latency` is arrival time minus the sender's stamp.
    case delivered([UInt8], sequence: UInt32, latency: Interval)
    /// Arrived after the deadline and was dropped.
    case late(sequence: UInt32, latency: Interval)
    /// Seen before (or too old to tell) and was dropped.
    case duplicate(sequence: UInt32)
    /// Not a datagram of this flow.
    case ignored
}

/// Counters of a ``DatagramFlow``.
public struct DatagramStatistics: Hashable, Sendable {
    public var sent = 0
    /// Distinct datagrams that arrived, late ones included.
    public var received = 0
    public var delivered = 0
    /// Sequence numbers skipped and not (yet) filled by a reordered arrival.
    public var lost = 0
    /// Arrived after a higher sequence number.
    public var reordered = 0
    public var late = 0
    public var duplicates = 0

    public init() {}
}
