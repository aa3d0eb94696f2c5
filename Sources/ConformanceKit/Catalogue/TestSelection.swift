/// Which tests a run takes: the union of the `--only` patterns (all tests when there are none), minus
/// every test a `--skip` pattern matches.
public struct TestSelection: Hashable, Sendable {
    public var only: [TestPattern]
    public var skip: [TestPattern]

    public init(only: [String] = [], skip: [String] = []) {
        self.only = only.map(TestPattern.init)
        self.skip = skip.map(TestPattern.init)
    }

    public static let all = TestSelection()

    public func includes(_ id: TestID) -> Bool {
        (only.isEmpty || only.contains { $0.matches(id) }) && !skip.contains { $0.matches(id) }
    }

    /// `--only` patterns that match no test of the catalogue: almost always a typo, so the runner
    /// refuses them rather than quietly running less than was asked.
    public func unmatchedOnlyPatterns(in ids: [TestID]) -> [TestPattern] {
        only.filter { pattern in !ids.contains { pattern.matches($0) } }
    }
}
