/// The outcome of a test (docs/reference/reports.md, "Verdicts").
public enum TestVerdict: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Every expectation held in every iteration.
    case pass
    /// An expectation failed: the accessory did not behave as required.
    case fail
    /// The test did not run: the profile or target lacks what it needs (the reason says what).
    case skip
    /// The test could not judge: it threw, or the environment broke (`ErrorOrigin` says which).
    case error
    /// The test ran past its wall-clock guard or its virtual budget.
    case timeout

    /// Pass, skip or not.
    public var isFailing: Bool { self == .fail || self == .error || self == .timeout }

    /// How a test's iterations combine: the worst one wins, in the order pass < skip < fail < timeout < error.
    var severity: Int {
        switch self {
        case .pass: 0
        case .skip: 1
        case .fail: 2
        case .timeout: 3
        case .error: 4
        }
    }

    public static func < (lhs: TestVerdict, rhs: TestVerdict) -> Bool { lhs.severity < rhs.severity }

    /// The fixed-width tag of the console's progress lines.
    public var label: String { rawValue.uppercased() }
}
