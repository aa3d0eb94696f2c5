import AwareCore
import AwareWire

/// What a ``FileServer`` or ``FileClient`` asks its driver to do. Timers are per flow, because
/// a server runs one reliable connection per client (and per resume).
public enum FileServiceAction: Hashable, Sendable {
    case transmit(AppMessage)
    case armTimer(flowID: UInt16, at: Instant)
    case cancelTimer(flowID: UInt16)
    /// A client's progress and outcome.
    case event(FileTransferEvent)
    /// A server gave up on a connection (the client is gone); the client may come back on a new flow.
    case connectionLost(flowID: UInt16, ReliableFailure)
}

extension [ReliableAction] {
    /// The reliable flow's timer and transmissions in file-service terms; deliveries and failures
    /// are the caller's to interpret.
    func fileServiceActions(flowID: UInt16) -> [FileServiceAction] {
        compactMap { action in
            switch action {
            case .transmit(let message): .transmit(message)
            case .armTimer(let deadline): .armTimer(flowID: flowID, at: deadline)
            case .cancelTimer: .cancelTimer(flowID: flowID)
            case .deliver, .failed: nil
            }
        }
    }
}
