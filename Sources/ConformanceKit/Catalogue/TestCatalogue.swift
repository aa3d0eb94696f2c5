/// Every test the runner knows, in ID order: the order of listings, reports and shard assignment.
public struct TestCatalogue: Sendable {
    public let tests: [ConformanceTest]

    public init(_ tests: [ConformanceTest]) throws(CatalogueError) {
        let sorted = tests.sorted { $0.id < $1.id }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.id == next.id {
            throw .duplicateTestID(next.id.description)
        }
        self.tests = sorted
    }

    public var ids: [TestID] { tests.map(\.id) }

    /// Groups in ID order: `["WA/DISC"]`.
    public var groups: [String] {
        var seen: [String] = []
        for test in tests where seen.last != test.group { seen.append(test.group) }
        return seen
    }

    public func test(_ id: TestID) -> ConformanceTest? { tests.first { $0.id == id } }

    public func test(_ id: String) -> ConformanceTest? {
        guard let parsed = try? TestID(id) else { return nil }
        return test(parsed)
    }

    /// The selected tests, in catalogue order.
    public func select(_ selection: TestSelection) -> [ConformanceTest] {
        tests.filter { selection.includes($0.id) }
    }

    /// Each test with whether it runs on `capabilities` and why not: what `aware-conform list` shows.
    public func listing(on capabilities: TargetCapabilities?) -> [CatalogueEntry] {
        tests.map { test in
            CatalogueEntry(test: test, applicability: capabilities.map { test.applicability(on: $0) })
        }
    }
}
