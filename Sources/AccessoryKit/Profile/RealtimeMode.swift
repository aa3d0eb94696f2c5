import AwareProtocol

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
