import AwareCore
import AwareWire

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
            actions.append(.deliver(message.body))
            expected &+= 1
            statistics.delivered += 1
            while let next = ahead.removeValue(forKey: expected) {
                actions.append(.deliver(next))
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
