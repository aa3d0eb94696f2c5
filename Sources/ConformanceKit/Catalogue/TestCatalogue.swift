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

/// A row of `aware-conform list`: a test and, when a profile was given, whether it applies.
public struct CatalogueEntry: Sendable {
    public let test: ConformanceTest
    /// Nil when listed without a profile.
    public let applicability: Applicability?
}

/// A catalogue that cannot be built: a programming error in the test definitions, reported with the
/// offending ID so it is fixed before any run.
public enum CatalogueError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidTestID(String, reason: String)
    case duplicateTestID(String)
    case invalidTag(String)

    public var description: String {
        switch self {
        case .invalidTestID(let text, let reason): "invalid test ID \"\(text)\": \(reason)"
        case .duplicateTestID(let id): "two tests share the ID \(id)"
        case .invalidTag(let tag): "invalid tag \"\(tag)\": tags are lower-case words joined by hyphens"
        }
    }
}

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

/// An `--only` / `--skip` pattern over test IDs. `*` matches any run of characters, `/` included
/// (`WA/DISC/*` selects `WA/DISC/MF/BV-03`), `?` matches one character; everything else matches
/// itself, ignoring case (IDs are upper-case, typing them need not be).
public struct TestPattern: Hashable, Sendable, CustomStringConvertible {
    public let text: String
    private let characters: [Character]

    public init(_ text: String) {
        self.text = text
        characters = Array(text.uppercased())
    }

    public var description: String { text }

    public func matches(_ id: TestID) -> Bool { matches(id.description) }

    public func matches(_ candidate: String) -> Bool {
        let subject = Array(candidate.uppercased())
        // Greedy match with one backtrack point: the last `*` seen and where its run began.
        var p = 0
        var s = 0
        var star: (pattern: Int, subject: Int)?
        while s < subject.count {
            if p < characters.count, characters[p] == "*" {
                star = (p, s)
                p += 1
            } else if p < characters.count, characters[p] == "?" || characters[p] == subject[s] {
                p += 1
                s += 1
            } else if let backtrack = star {
                p = backtrack.pattern + 1
                s = backtrack.subject + 1
                star = (backtrack.pattern, backtrack.subject + 1)
            } else {
                return false
            }
        }
        while p < characters.count, characters[p] == "*" { p += 1 }
        return p == characters.count
    }
}

/// The whole catalogue: every test group the runner knows, and for each emulator fault the
/// tests it must make fail across all groups (what `aware-conform selftest` checks), from the fault
/// contracts the tests declare.
public enum ConformanceSuites {
    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        try DiscoverySuite.tests(target: target, faults: faults) + PairingSuite.tests(target: target, faults: faults)
            + DataPathSuite.tests(target: target, faults: faults)
    }

    /// The catalogue as declared: built once on a target that opens no session, for its fault contracts.
    static let declarations: TestCatalogue = {
        do {
            return try TestCatalogue(tests(target: DeclarationsOnly()))
        } catch {
            fatalError("the conformance catalogue cannot be built: \(error)")
        }
    }()

    /// Every fault some test declares.
    public static var faults: [String] { declarations.faults }

    /// The tests `fault` must make fail against an accessory with `profile`.
    public static func expectedFailures(for fault: String, profile: ProfileFacts?) -> Set<String> {
        declarations.expectedFailures(for: fault, profile: profile)
    }

    /// Lends the suites a target to build their tests on; nothing runs on it.
    private struct DeclarationsOnly: AccessoryTarget {
        var name: String { "declarations" }
        var capabilities: TargetCapabilities { TargetCapabilities(target: name, profile: nil) }
        var clock: TestClock { .virtual }
        func openSession(_ request: SessionRequest) throws -> any TargetSession {
            throw TargetError("the catalogue's declarations run no test")
        }
    }
}

extension TestCatalogue {
    /// Every fault some test's contract names, in name order.
    public var faults: [String] {
        Set(tests.flatMap { $0.faultContract.everyFault.map(\.rawValue) }).sorted()
    }

    /// The IDs of the tests whose contract says `fault` breaks them against an accessory with `profile`.
    public func expectedFailures(for fault: String, profile: ProfileFacts?) -> Set<String> {
        Set(tests.filter { $0.faultContract.faults(for: profile).contains(FaultName(fault)) }.map(\.id.description))
    }
}
