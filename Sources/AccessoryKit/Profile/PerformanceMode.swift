import AwareProtocol

/// `WAPerformanceMode` (apple-peer-model.md 1.7): the protocol layer's type, with the schedule
/// and duty cycle it maps to.
public typealias PerformanceMode = AwareProtocol.PerformanceMode
