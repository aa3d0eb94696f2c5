/// `WAPerformanceMode` (apple-peer-model.md 1.7).
public enum PerformanceMode: String, Codable, Hashable, Sendable, CaseIterable {
    case bulk
    case realtime
}
