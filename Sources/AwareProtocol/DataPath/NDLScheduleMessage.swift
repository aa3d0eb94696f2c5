import AwareCore
import AwareWire

/// The parts of a received schedule NAF (subtypes 10-13) the schedule machines read: the NDL
/// attribute, the NAN Availability attributes, the NDC and the NDL QoS. Unlike the data path
/// NAFs they carry no NDP attribute: the NDL's dialog token ties an exchange together.
public struct NDLScheduleMessage: Sendable {
    public let frame: NANActionFrame
    public let ndl: NDLAttribute?
    /// Every NAN Availability attribute, in order (one per Map ID, 2.7).
    public let availabilities: [AvailabilityAttribute]
    public let ndcs: [NDCAttribute]
    public let qos: NDLQoSAttribute?

    /// nil unless the frame is a Schedule Request, Response, Confirm or Update Notification.
    public init?(_ frame: NANActionFrame) {
        switch frame.subtype {
        case .scheduleRequest, .scheduleResponse, .scheduleConfirm, .scheduleUpdateNotification: break
        default: return nil
        }
        var ndl: NDLAttribute?
        var availabilities: [AvailabilityAttribute] = []
        var ndcs: [NDCAttribute] = []
        var qos: NDLQoSAttribute?
        for attribute in frame.attributes {
            switch attribute {
            case .ndl(let value) where ndl == nil: ndl = value
            case .availability(let value): availabilities.append(value)
            case .ndc(let value): ndcs.append(value)
            case .ndlQoS(let value) where qos == nil: qos = value
            default: continue
            }
        }
        self.frame = frame
        self.ndl = ndl
        self.availabilities = availabilities
        self.ndcs = ndcs
        self.qos = qos
    }

    /// The sender's schedule of `kinds` on `channel`'s primary channel, across every map; nil
    /// when none is there or a bitmap cannot be read.
    public func schedule(on channel: NANChannel, kinds: Set<AvailabilityEntryKind> = [.committed]) -> NDPSchedule? {
        NDPSchedule.schedules(in: availabilities, kinds: kinds)?.first { $0.channel.number == channel.number }
    }

    /// The NDC the frame names (2.8), on `channel`: the first with schedule entries.
    public func ndc(on channel: NANChannel) -> NDCSchedule? {
        ndcs.lazy.compactMap { NDCSchedule($0, channel: channel) }.first
    }
}
