/// The family a frame belongs to, for the diagram's colours: beacons recede so the discovery,
/// pairing, schedule and data frames a failure is about stand out. The label names every frame in
/// words as well, so nothing depends on telling the colours apart.
enum FrameCategory: String, Hashable, Sendable, CaseIterable {
    case beacon
    case discovery
    case pairing
    case schedule
    case data
    case other

    init(kind: String) {
        if kind.hasPrefix("NAN") && kind.hasSuffix("Beacon") {
            self = .beacon
        } else if kind.hasPrefix("SDF") {
            self = .discovery
        } else if kind.hasPrefix("PASN") {
            self = .pairing
        } else if kind.hasPrefix("NAF") {
            self = .schedule
        } else if kind.hasPrefix("Data") || kind.hasPrefix("QoS Data") {
            self = .data
        } else {
            self = .other
        }
    }

    /// Stroke and fill of the arrow.
    var colour: String {
        switch self {
        case .beacon: "#9aa0a6"
        case .discovery: "#0b57d0"
        case .pairing: "#7b1fa2"
        case .schedule: "#a04f00"
        case .data: "#1e7b34"
        case .other: "#1b1b1b"
        }
    }
}
