/// What the NAN function offload path tells the operator besides errors: functions it added
/// for a role instance (with what the function could not carry), functions it deleted, and
/// functions the driver ended on its own (`NL80211_CMD_DEL_NAN_FUNCTION` as an event,
/// `cfg80211_nan_func_terminated`).
public enum NL80211OffloadNotice: Hashable, Sendable {
    /// `ADD_NAN_FUNCTION` succeeded for the role instance `instanceID` of station `owner`.
    case functionAdded(owner: String, instanceID: UInt8, cookie: UInt64, lost: [String])
    /// This radio deleted the function: its content changed, the role stopped sending it, or
    /// the station left the air.
    case functionDeleted(owner: String, instanceID: UInt8, cookie: UInt64, why: String)
    /// The driver ended the function: `reason` is an `enum nl80211_nan_func_term_reason`
    /// (0 user request, 1 TTL expired, 2 error); `instanceID` is the driver's.
    case functionTerminated(cookie: UInt64, instanceID: UInt8, reason: UInt8)
}
