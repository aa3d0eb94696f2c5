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

// MARK: - PerformanceMode

/// `WAPerformanceMode` (apple-peer-model.md 1.7): the protocol layer's type, with the schedule
/// and duty cycle it maps to.
public typealias PerformanceMode = AwareProtocol.PerformanceMode

// MARK: - ServiceClass

/// The service class that selects a `WAAccessCategory` (apple-peer-model.md 1.7): the protocol
/// layer's type, with the access category it maps to.
public typealias ServiceClass = AwareProtocol.ServiceClass

// MARK: - BulkMode

/// The bulk performance mode: throughput and power first.
public struct BulkMode: Codable, Hashable, Sendable {
    public var serviceClass: ServiceClass
    /// The throughput the accessory aims for, for reports; nil makes no claim.
    public var targetThroughputMbps: Double?
    /// The goodput the accessory guarantees in bulk mode (WA/PERF throughput floor); nil: half
    /// the data path's modelled capacity.
    public var minThroughputMbps: Double?

    public init(
        serviceClass: ServiceClass = .bestEffort,
        targetThroughputMbps: Double? = nil,
        minThroughputMbps: Double? = nil
    ) {
        self.serviceClass = serviceClass
        self.targetThroughputMbps = targetThroughputMbps
        self.minThroughputMbps = minThroughputMbps
    }
}

// MARK: - RealtimeMode

/// The realtime performance mode: latency first, at the cost of power.
public struct RealtimeMode: Codable, Hashable, Sendable {
    public var serviceClass: ServiceClass
    /// The latency the accessory promises, for reports; nil makes no claim.
    public var maxLatencyMs: Double?

    public init(serviceClass: ServiceClass = .interactiveVideo, maxLatencyMs: Double? = nil) {
        self.serviceClass = serviceClass
        self.maxLatencyMs = maxLatencyMs
    }
}
