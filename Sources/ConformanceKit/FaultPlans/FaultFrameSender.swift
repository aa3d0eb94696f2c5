import AwareRadio

/// Whose frames a fault step takes: the phone's (the stations the runner attached), the
/// accessory's (everything else: on a shared air, the frames of other processes), or both.
public enum FaultFrameSender: String, CaseIterable, Hashable, Sendable {
    case phone
    case accessory
    case any

    func includes(_ origin: FrameOrigin, phoneStations: Set<String>) -> Bool {
        switch self {
        case .any: return true
        case .phone:
            if case .local(let name) = origin { return phoneStations.contains(name) }
            return false
        case .accessory:
            if case .local(let name) = origin { return !phoneStations.contains(name) }
            return true
        }
    }
}
