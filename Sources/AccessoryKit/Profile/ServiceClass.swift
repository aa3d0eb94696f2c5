/// The service class that selects a `WAAccessCategory` (apple-peer-model.md 1.7).
public enum ServiceClass: String, Codable, Hashable, Sendable, CaseIterable {
    case bestEffort
    case background
    case interactiveVideo
    case interactiveVoice
}
