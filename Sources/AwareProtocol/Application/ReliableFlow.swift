import AwareCore
import AwareWire

/// Parameters of a reliable flow. The timeout rules are RFC 6298's, with its bounds relaxed
/// for a one-hop link: RFC 6298 2.4 rounds RTO up to 1 s for the Internet, while a NAN data
/// path's round trip is milliseconds (or a discovery-window interval, 524 ms, at worst).
public struct ReliableConfiguration: Hashable, Sendable {
    /// Segments sent and not yet acknowledged, at most.
    public var window: Int
    /// Segments the receiver holds ahead of a gap, at most; later ones are dropped and resent.
    public var receiveBuffer: Int
    /// RTO before any round trip is measured (RFC 6298 2.1).
    public var initialTimeout: Interval
    public var minimumTimeout: Interval
    public var maximumTimeout: Interval
    /// G in RFC 6298 2.3: the floor of the variance term.
    public var clockGranularity: Interval
    /// Timeouts in a row, without an acknowledgement in between, before the link is declared lost.
    public var maximumRetransmissions: Int

    public init(
        window: Int = 32,
        receiveBuffer: Int = 64,
        initialTimeout: Interval = .seconds(1),
        minimumTimeout: Interval = .milliseconds(50),
        maximumTimeout: Interval = .seconds(8),
        clockGranularity: Interval = .milliseconds(1),
        maximumRetransmissions: Int = 6
    ) {
        self.window = max(1, window)
        self.receiveBuffer = max(0, receiveBuffer)
        self.initialTimeout = initialTimeout
        self.minimumTimeout = minimumTimeout
        self.maximumTimeout = maximumTimeout
        self.clockGranularity = clockGranularity
        self.maximumRetransmissions = max(0, maximumRetransmissions)
    }

    /// For bulk transfers (files): a bulk schedule leaves up to 96 TU between a segment and its
    /// acknowledgement, so a window of 32 segments would cap a transfer at a quarter of the data
    /// path's capacity (`aware-bench datapath` measured 0.25); 256 segments in flight keep the
    /// committed windows full.
    public static let bulk = ReliableConfiguration(window: 256, receiveBuffer: 512)
}

/// What a reliable sender or receiver asks its driver to do: send a message (a segment, a
/// retransmission, or an ack), arm or cancel the flow's timer, or report.
public typealias ReliableAction = MachineAction<AppMessage, ReliableTimer, ReliableNotification>

/// A reliable flow's single timer: armed (and re-armed) while segments are unacknowledged
/// (RFC 6298 5.1, 5.3, 5.6), cancelled once everything sent is acknowledged (5.2).
public enum ReliableTimer: Hashable, Sendable {
    case retransmission
}

/// What a reliable flow reports to its owner.
public enum ReliableNotification: Hashable, Sendable {
    /// Hand this body to the application: bodies come out in the order they were sent, once each.
    case deliver(AppMessageBody)
    /// The flow gave up; nothing more is sent.
    case failed(ReliableFailure)
}

/// What the owner feeds a ``ReliableEndpoint``.
public enum ReliableEvent: Hashable, Sendable {
    /// A body to send, in order (a reliable kind: segment, control, file messages).
    case send(AppMessageBody)
    /// A message of the flow arrived: an ack for the sender, anything else for the receiver.
    case received(AppMessage)
    /// The retransmission timer fired.
    case timerFired
}

/// Why a reliable flow stopped.
public enum ReliableFailure: Hashable, Sendable, CustomStringConvertible {
    /// The segment went unacknowledged through every retransmission: the link is taken as lost.
    case linkLost(sequence: UInt32, transmissions: Int)

    public var description: String {
        switch self {
        case .linkLost(let sequence, let transmissions):
            "link lost: segment \(sequence) unacknowledged after \(transmissions) transmissions"
        }
    }
}

/// Both halves of a reliable flow at one end: acks go to the sender, everything else that is
/// reliable to the receiver. The file service runs one per connection, through ``send(_:now:)``,
/// ``receive(_:now:)`` and ``timerFired(now:)``; a driver feeds it ``ReliableEvent``s.
public struct ReliableEndpoint: Sendable {
    public private(set) var sender: ReliableSender
    public private(set) var receiver: ReliableReceiver

    public init(flowID: UInt16, configuration: ReliableConfiguration = .init()) {
        sender = ReliableSender(flowID: flowID, configuration: configuration)
        receiver = ReliableReceiver(flowID: flowID, receiveBuffer: configuration.receiveBuffer)
    }

    public var flowID: UInt16 { sender.flowID }

    public mutating func send(_ body: AppMessageBody, now: Instant) -> [ReliableAction] {
        sender.send(body, now: now)
    }

    public mutating func receive(_ message: AppMessage, now: Instant) -> [ReliableAction] {
        message.kind == .ack ? sender.receive(message, now: now) : receiver.receive(message, now: now)
    }

    public mutating func timerFired(now: Instant) -> [ReliableAction] {
        sender.timerFired(now: now)
    }
}

extension ReliableEndpoint: ProtocolMachine {
    /// A reliable flow draws no randomness.
    public mutating func handle(
        _ event: ReliableEvent,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) -> [ReliableAction] {
        switch event {
        case .send(let body): send(body, now: now)
        case .received(let message): receive(message, now: now)
        case .timerFired: timerFired(now: now)
        }
    }

    public static func timerEvent(_ timer: ReliableTimer) -> ReliableEvent { .timerFired }
}

/// The receiving half of a reliable flow: delivers bodies in sequence order, once each, holds
/// up to `receiveBuffer` segments that arrive ahead of a gap, and answers every segment
/// (duplicates included, so that a sender whose ack was lost learns it) with a cumulative ack
/// naming the next sequence it expects.
public struct ReliableReceiver: Sendable {
    public let flowID: UInt16
    public let receiveBuffer: Int
    /// The next sequence number to deliver.
    public private(set) var expected: UInt32
    public private(set) var statistics = ReliableReceiverStatistics()
    private var ahead: [UInt32: AppMessageBody] = [:]

    public init(flowID: UInt16, receiveBuffer: Int = ReliableConfiguration().receiveBuffer, initialSequence: UInt32 = 0)
    {
        self.flowID = flowID
        self.receiveBuffer = max(0, receiveBuffer)
        self.expected = initialSequence
    }

    /// Handles a segment (or any reliable kind) of this flow; other messages are ignored.
    public mutating func receive(_ message: AppMessage, now: Instant) -> [ReliableAction] {
        guard message.flowID == flowID, message.kind.isReliable else { return [] }
        let distance = message.sequence &- expected
        var actions: [ReliableAction] = []
        if distance == 0 {
            actions.append(.notify(.deliver(message.body)))
            expected &+= 1
            statistics.delivered += 1
            while let next = ahead.removeValue(forKey: expected) {
                actions.append(.notify(.deliver(next)))
                expected &+= 1
                statistics.delivered += 1
            }
        } else if distance <= UInt32(clamping: receiveBuffer), distance < UInt32.max / 2 {
            if ahead[message.sequence] == nil {
                ahead[message.sequence] = message.body
                statistics.outOfOrder += 1
            } else {
                statistics.duplicates += 1
            }
        } else if distance >= UInt32.max / 2 {
            statistics.duplicates += 1
        } else {
            statistics.dropped += 1
        }
        actions.append(.transmit(AppMessage(flowID: flowID, sequence: expected, sentAt: now.nanoseconds, body: .ack)))
        return actions
    }
}

/// Counters of a ``ReliableReceiver``.
public struct ReliableReceiverStatistics: Hashable, Sendable {
    public var delivered = 0
    /// Segments that arrived ahead of a gap and were held.
    public var outOfOrder = 0
    /// Segments already delivered or already held.
    public var duplicates = 0
    /// Segments too far ahead for the receive buffer, left for the sender to retransmit.
    public var dropped = 0

    public init() {}
}
