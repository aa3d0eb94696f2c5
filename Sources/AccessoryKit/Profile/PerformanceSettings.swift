import AwareProtocol

/// The Wi-Fi Aware performance modes the accessory serves, and the service class (access
/// category) each uses. The phone defaults to bulk + best effort; realtime must be configured on
/// both ends (apple-peer-model.md 1.7, 5.12).
public struct PerformanceSettings: Codable, Hashable, Sendable {
    public var defaultMode: PerformanceMode
    public var bulk: BulkMode?
    public var realtime: RealtimeMode?

    enum CodingKeys: String, CodingKey {
        case defaultMode = "default"
        case bulk
        case realtime
    }

    public init(defaultMode: PerformanceMode = .bulk, bulk: BulkMode? = BulkMode(), realtime: RealtimeMode? = nil) {
        self.defaultMode = defaultMode
        self.bulk = bulk
        self.realtime = realtime
    }

    public var supportedModes: [PerformanceMode] {
        (bulk == nil ? [] : [.bulk]) + (realtime == nil ? [] : [.realtime])
    }

    /// The service class used in `mode`, or nil when the accessory does not offer that mode.
    public func serviceClass(for mode: PerformanceMode) -> ServiceClass? {
        switch mode {
        case .bulk: return bulk?.serviceClass
        case .realtime: return realtime?.serviceClass
        }
    }
}
