/// What a station is in the test, read from what it sent: the publisher is the accessory, the
/// subscriber and PASN initiator the phone (docs/reference/architecture.md, "Data through the system").
enum StationRole: Hashable, Sendable {
    case phone
    case accessory
    case station

    var label: String {
        switch self {
        case .phone: "phone"
        case .accessory: "accessory"
        case .station: "station"
        }
    }

    /// The role a frame of `kind` shows its transmitter to have, if it shows one.
    init?(transmitterOf kind: String) {
        if kind.hasPrefix("SDF") && kind.contains("Publish") {
            self = .accessory
        } else if kind.hasPrefix("SDF") && kind.contains("Subscribe") {
            self = .phone
        } else if kind == "PASN Authentication 1" || kind == "PASN Authentication 3" {
            self = .phone
        } else if kind == "PASN Authentication 2" {
            self = .accessory
        } else {
            return nil
        }
    }
}
