import AwareCore
import AwareWire

/// A function this radio added on the offload path for one role instance: what was sent, the
/// cookie the kernel gave it (for `DEL_NAN_FUNCTION` and to recognise its `NAN_MATCH`
/// events), the instance ID the driver uses for it on the air, and when the role last sent
/// the frame it stands for.
struct NL80211OffloadedFunction: Hashable, Sendable {
    var function: NL80211NANFunction
    var cookie: UInt64
    /// `NL80211_NAN_FUNC_INSTANCE_ID` from the `ADD_NAN_FUNCTION` reply, when it carried one.
    var driverInstanceID: UInt8?
    var lastRequested: Instant
}
