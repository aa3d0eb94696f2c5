import AwareCore
import AwareWire

/// Both halves of a reliable flow at one end: acks go to the sender, everything else that is
/// reliable to the receiver. The file service runs one per connection.
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
