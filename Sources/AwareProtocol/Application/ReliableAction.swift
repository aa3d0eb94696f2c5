import AwareCore
import AwareWire

/// What a reliable sender or receiver asks its driver to do.
public enum ReliableAction: Hashable, Sendable {
    /// Send this message (a segment, a retransmission, or an ack).
    case transmit(AppMessage)
    /// (Re)arm the flow's single retransmission timer (RFC 6298 5.1, 5.3, 5.6).
    case armTimer(at: Instant)
    /// Everything sent is acknowledged (RFC 6298 5.2).
    case cancelTimer
    /// Hand this body to the application: bodies come out in the order they were sent, once each.
    case deliver(AppMessageBody)
    /// The flow gave up; nothing more is sent.
    case failed(ReliableFailure)
}
