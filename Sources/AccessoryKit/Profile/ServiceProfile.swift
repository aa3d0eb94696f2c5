import AwareWire

/// One published service.
public struct ServiceProfile: Codable, Hashable, Sendable {
    /// The fully qualified name, exactly as sent over the air (`_drone-service._udp`).
    public var name: String
    /// The publish instance ID (1...255). Profiles may leave it out: the loader gives such services
    /// the lowest IDs no other service claims, in file order.
    public var instanceId: Int
    public var publishType: PublishType
    /// A matching filter SPEC (`drone:*:v2`): the TX filter of unsolicited publishes and the RX
    /// filter that active subscribers' filters are matched against.
    public var matchFilter: String?
    public var serviceInfo: ServiceInfo?
    /// How long the publish lasts; nil publishes until the accessory stops.
    public var ttlSeconds: Int?
    /// Discovery Range Limited (SDA Service Control bit 5, nan-wire-reference.md 2.4): only
    /// phones close by discover the service or get answers.
    public var rangeLimited: Bool
    /// How the accessory accepts data paths for this service; nil means it accepts none.
    public var datapath: DatapathSettings?

    public init(
        name: String,
        instanceId: Int,
        publishType: PublishType,
        matchFilter: String? = nil,
        serviceInfo: ServiceInfo? = nil,
        ttlSeconds: Int? = nil,
        rangeLimited: Bool = false,
        datapath: DatapathSettings? = nil
    ) {
        self.rangeLimited = rangeLimited
        self.name = name
        self.instanceId = instanceId
        self.publishType = publishType
        self.matchFilter = matchFilter
        self.serviceInfo = serviceInfo
        self.ttlSeconds = ttlSeconds
        self.datapath = datapath
    }

    /// The validated name; nil only for a hand-built value that breaks the rule.
    public var serviceName: ServiceName? { try? ServiceName(name) }

    /// The parsed filter; nil when there is none (or a hand-built value holds a bad SPEC).
    public var matchingFilter: MatchingFilter? { matchFilter.flatMap { try? MatchingFilter(spec: $0) } }
}
