/// The tests a run will take (this shard's share of the selection, in catalogue order) and whether
/// each applies.
public struct RunPlan: Sendable {
    public var metadata: RunMetadata
    public var entries: [CatalogueEntry]

    public var tests: [ConformanceTest] { entries.map(\.test) }
}
