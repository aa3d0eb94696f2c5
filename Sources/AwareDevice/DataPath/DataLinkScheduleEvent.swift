import AwareCore
import AwareProtocol
import AwareWire

/// What a ``DataPathManager`` reports about the schedule of an established NDL with `peer`
/// (every data path with one peer shares it).
public enum DataLinkScheduleEvent: Hashable, Sendable {
    /// A renegotiation (Schedule Request / Response / Confirm) agreed on `schedule`; every data
    /// path with the peer runs on it now. `requestedByPeer` says who asked.
    case updated(peer: MACAddress, NDPSchedule, requestedByPeer: Bool)
    /// A renegotiation failed (rejected, refused or unanswered): the NDL keeps its schedule.
    case failed(peer: MACAddress, NDPFailure, requestedByPeer: Bool)
    /// The peer announced a new committed schedule (Schedule Update Notification); the NDL
    /// runs on the part of it this device can do.
    case notified(peer: MACAddress, NDPSchedule)
}

/// What a data path's NAFs were sent with: the NDL's schedule NAFs go the same way.
struct LinkContext {
    var clusterID: MACAddress
    var category: NANActionCategory
    var leadingAttributes: [NANAttribute]
}
