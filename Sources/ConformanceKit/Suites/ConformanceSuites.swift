/// The whole catalogue: every test group the runner knows, and for each emulator fault the
/// tests it must make fail across all groups (what `aware-conform selftest` checks).
public enum ConformanceSuites {
    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        try DiscoverySuite.tests(target: target, faults: faults) + PairingSuite.tests(target: target, faults: faults)
            + DataPathSuite.tests(target: target, faults: faults)
    }

    /// Every fault some group expects failures for.
    public static var faults: [String] {
        Set(DiscoverySuite.expectedFailures.keys).union(PairingSuite.expectedFailures.keys)
            .union(DataPathSuite.expectedFailures.keys).sorted()
    }

    public static func expectedFailures(for fault: String, profile: ProfileFacts?) -> Set<String> {
        DiscoverySuite.expectedFailures(for: fault, profile: profile)
            .union(PairingSuite.expectedFailures(for: fault, profile: profile))
            .union(DataPathSuite.expectedFailures(for: fault, profile: profile))
    }
}
