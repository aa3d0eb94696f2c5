import AwareProtocol

/// The bulk performance mode: throughput and power first.
public struct BulkMode: Codable, Hashable, Sendable {
    public var serviceClass: ServiceClass
    /// The throughput the accessory aims for, for reports; nil makes no claim.
    public var targetThroughputMbps: Double?

    public init(serviceClass: ServiceClass = .bestEffort, targetThroughputMbps: Double? = nil) {
        self.serviceClass = serviceClass
        self.targetThroughputMbps = targetThroughputMbps
    }
}
