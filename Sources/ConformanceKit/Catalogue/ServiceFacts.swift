/// What the runner may assume about one service the profile publishes. The `aware-conform` executable
/// fills it from AccessoryKit's `ServiceProfile`; ConformanceKit never reads profiles itself, so the
/// accessory is only ever judged through the air against what its maker declared.
public struct ServiceFacts: Hashable, Sendable {
    /// The service name as sent over the air (`_drone-service._udp`).
    public var name: String
    public var instanceID: Int
    /// Publish type unsolicited or both.
    public var publishesUnsolicited: Bool
    /// Publish type solicited or both: the service answers active subscribes.
    public var answersSubscribes: Bool
    /// The service's matching filter SPEC, if it has one.
    public var matchFilter: String?
    /// Seconds the publish lasts; nil for a publish without a TTL.
    public var ttlSeconds: Int?
    /// The DNS-SD TXT keys the service carries in its SDEA service info.
    public var txtKeys: [String]

    public init(
        name: String,
        instanceID: Int,
        publishesUnsolicited: Bool,
        answersSubscribes: Bool,
        matchFilter: String? = nil,
        ttlSeconds: Int? = nil,
        txtKeys: [String] = []
    ) {
        self.name = name
        self.instanceID = instanceID
        self.publishesUnsolicited = publishesUnsolicited
        self.answersSubscribes = answersSubscribes
        self.matchFilter = matchFilter
        self.ttlSeconds = ttlSeconds
        self.txtKeys = txtKeys
    }
}
