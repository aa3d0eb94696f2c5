import AwareCore
import AwareWire

/// What a PASN machine asks its owner to do. Each machine has one timer: the wait for the
/// peer's next frame.
public enum PASNAction: Hashable, Sendable {
    case transmit(TxRequest)
    case armTimer(at: Instant)
    case cancelTimer
    case notify(PASNNotification)
}

/// What a PASN machine reports.
public enum PASNNotification: Hashable, Sendable {
    /// Frame `sequence` went out (`attempt` counts retransmissions of frame 1 from 1).
    case frameSent(sequence: UInt16, attempt: Int)
    case completed(PASNResult)
    case failed(PASNFailure)
}
