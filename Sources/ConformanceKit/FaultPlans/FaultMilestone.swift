import AwareCore
import AwareWire

/// When a lifecycle step (reboot, out of range) happens: at a moment of the phone's own
/// progress, as the phone logs it in the test's events.jsonl.
public enum FaultMilestone: String, CaseIterable, Hashable, Sendable {
    /// As soon as the test's phone is on the air.
    case start
    /// The phone found a matching service (`discovery_result`, matched).
    case discovered
    /// The accessory accepted the phone's bootstrapping (`bootstrap_accepted`): its PIN is up.
    case bootstrapped
    /// A pairing setup succeeded (`pairing_outcome` paired): "between pairing and verification".
    case paired
    /// A pairing verification succeeded (`pairing_outcome` reconnected).
    case reconnected
    /// A data path came up (`datapath_established`).
    case dataPathUp = "datapath-up"

    /// Whether the phone's log line `event` with `fields` marks this milestone.
    func isReached(by event: String, fields: [String: JSONValue]) -> Bool {
        switch self {
        case .start: false
        case .discovered: event == "discovery_result" && fields["matched"] == .bool(true)
        case .bootstrapped: event == "bootstrap_accepted"
        case .paired: event == "pairing_outcome" && fields["result"] == .string("paired")
        case .reconnected: event == "pairing_outcome" && fields["result"] == .string("reconnected")
        case .dataPathUp: event == "datapath_established"
        }
    }
}
