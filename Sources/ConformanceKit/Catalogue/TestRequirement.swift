/// What a test needs the profile to declare. A closed set, so `list` can explain every gate in words and
/// a profile cannot be "empty" by accident: each case names one fact of `ProfileFacts`.
public enum TestRequirement: Hashable, Sendable, CustomStringConvertible {
    /// A service published unsolicited (publish type unsolicited or both).
    case unsolicitedPublish
    /// A service that answers active subscribes (publish type solicited or both).
    case solicitedPublish
    /// A service with a matching filter.
    case matchFilter
    /// A service whose publish has a TTL.
    case publishTTL
    /// Pairing offered (a pairing section in the profile).
    case pairing
    /// At least this many published services.
    case services(atLeast: Int)
    /// A service whose TXT record carries this key (compared case-insensitively, as DNS-SD keys are).
    case txtKey(String)
    /// A service that takes data paths (`datapath` in the profile).
    case dataPath
    /// The profile offers this performance mode ("realtime").
    case performanceMode(String)
    /// A file service in the profile's app.
    case fileService

    public func isMet(by profile: ProfileFacts) -> Bool {
        switch self {
        case .unsolicitedPublish: profile.services.contains { $0.publishesUnsolicited }
        case .solicitedPublish: profile.services.contains { $0.answersSubscribes }
        case .matchFilter: profile.services.contains { $0.matchFilter != nil }
        case .publishTTL: profile.services.contains { $0.ttlSeconds != nil }
        case .pairing: profile.offersPairing
        case .services(let count): profile.services.count >= count
        case .txtKey(let key):
            profile.services.contains { service in service.txtKeys.contains { $0.lowercased() == key.lowercased() } }
        case .dataPath: profile.dataPath != nil
        case .performanceMode(let mode): profile.dataPath?.serviceClasses[mode] != nil
        case .fileService: profile.dataPath?.fileService != nil
        }
    }

    /// What the test needs, in words: "a service published unsolicited".
    public var description: String {
        switch self {
        case .unsolicitedPublish: "a service published unsolicited"
        case .solicitedPublish: "a service that answers active subscribes (solicited)"
        case .matchFilter: "a service with a matching filter"
        case .publishTTL: "a service published with a TTL"
        case .pairing: "pairing offered"
        case .services(let count): "at least \(count) services"
        case .txtKey(let key): "a service whose TXT record has the key \(key)"
        case .dataPath: "a service that takes data paths"
        case .performanceMode(let mode): "the \(mode) performance mode"
        case .fileService: "a file service"
        }
    }

    /// The skip reason when the profile lacks it: "the profile has no service published unsolicited".
    public func unmetReason(_ profile: ProfileFacts) -> String {
        switch self {
        case .pairing: "the profile does not offer pairing"
        case .services(let count):
            "the profile publishes \(profile.services.count) service\(profile.services.count == 1 ? "" : "s"), "
                + "the test needs at least \(count)"
        case .performanceMode(let mode): "the profile does not offer the \(mode) performance mode"
        case .unsolicitedPublish, .solicitedPublish, .matchFilter, .publishTTL, .txtKey, .dataPath, .fileService:
            "the profile has no \(description.dropFirst(2))"
        }
    }
}
