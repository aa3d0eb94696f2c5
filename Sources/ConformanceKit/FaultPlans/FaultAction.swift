import AwareCore
import AwareWire

/// What one step of a fault plan does.
public enum FaultAction: Hashable, Sendable {
    /// Lose the selected frame: its first transmission only (the sender's MAC may recover by
    /// retrying), or every retransmission of it too.
    case drop(FaultFrameSelector, everyAttempt: Bool)
    /// Hold the selected frame back before it goes on the air (a slow firmware).
    case delay(FaultFrameSelector, by: Interval)
    /// Change a named field of the selected frame (in the `occurrence`-th container that has it).
    case corrupt(FaultFrameSelector, field: FaultField, occurrence: Int, change: FaultFieldChange)
    /// Power-cycle the accessory when the phone reaches `after`.
    case reboot(after: FaultMilestone)
    /// Carry the phone out of range when it reaches `after`, for `duration` (nil: for good):
    /// nothing either side sends reaches the other.
    case outOfRange(after: FaultMilestone, duration: Interval?)

    /// The action's name as a plan writes it.
    public var name: String {
        switch self {
        case .drop: "drop"
        case .delay: "delay"
        case .corrupt: "corrupt"
        case .reboot: "reboot"
        case .outOfRange: "out-of-range"
        }
    }

    var selector: FaultFrameSelector? {
        switch self {
        case .drop(let selector, _), .delay(let selector, _), .corrupt(let selector, _, _, _): selector
        case .reboot, .outOfRange: nil
        }
    }
}
