/// The one timer of an NDP machine, named by what it waits for. On expiry the machine
/// retransmits its last frame or, after the last attempt, fails with a timeout.
public enum NDPTimer: Hashable, Sendable {
    /// The initiator waits for the Data Path Response.
    case awaitingResponse
    /// The responder waits for the Data Path Confirm.
    case awaitingConfirm
    /// The initiator waits for the Data Path Key Installment.
    case awaitingKeyInstall
    /// A schedule renegotiation's requester waits for the Schedule Response (NAF subtype 11).
    case awaitingScheduleResponse
    /// A schedule renegotiation's responder, having counter-proposed, waits for the Schedule
    /// Confirm (NAF subtype 12).
    case awaitingScheduleConfirm
}
