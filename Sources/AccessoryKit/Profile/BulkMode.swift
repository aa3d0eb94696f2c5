import AwareProtocol

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
