/// An accessory fault by its `--fault` name (`accessory-emu --fault NAME`).
///
/// The names are the raw values of AccessoryKit's `AccessoryFault`, which ConformanceKit never imports;
/// Tests/AccessoryKitTests checks that every name a test declares is a case and every case is declared.
public struct FaultName: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: FaultName, rhs: FaultName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A step many tests take on the way to the rule they check (finding the accessory, pairing with it,
/// setting up a data path), with the faults that break the step itself.
///
/// A fault aimed at one rule also breaks every test that needs that rule working first: a wrong service
/// ID hides the accessory from every test that has to find it. The step says so once, with the reason;
/// a test names the steps it takes (`steps: [.pairing]`) and is broken by their faults and by those of
/// the steps they come after.
public struct SharedStep: Hashable, Sendable, CustomStringConvertible {
    /// How the catalogue's table names the step: "pairing".
    public let name: String
    /// The steps taken before this one (pairing comes after discovery).
    public let after: [SharedStep]
    /// The faults that break this step itself.
    public let brokenBy: [FaultName]
    /// Why those faults break it, in one line.
    public let reason: String

    public init(_ name: String, after: [SharedStep] = [], brokenBy: [FaultName], because reason: String) {
        self.name = name
        self.after = after
        self.brokenBy = brokenBy
        self.reason = reason
    }

    public var description: String { name }

    /// This step and every step it comes after, earliest first, each once.
    public var chain: [SharedStep] {
        var steps: [SharedStep] = []
        for step in after.flatMap(\.chain) + [self] where !steps.contains(step) { steps.append(step) }
        return steps
    }

    /// The faults that break this step or a step before it.
    public var faults: Set<FaultName> { Set(chain.flatMap(\.brokenBy)) }
}

/// A fact about the profile that a test's faults depend on, with the words the catalogue's table uses.
public struct ProfileCondition: Sendable, CustomStringConvertible {
    /// "the profile offers a file service".
    public let description: String
    private let predicate: @Sendable (ProfileFacts?) -> Bool

    public init(_ description: String, _ predicate: @escaping @Sendable (ProfileFacts?) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Whether it holds for `profile` (nil: the catalogue listed without a profile).
    public func holds(for profile: ProfileFacts?) -> Bool { predicate(profile) }
}

/// Faults that break a test only when the profile has some property.
public struct ConditionalFaults: Sendable {
    public let condition: ProfileCondition
    public let faults: [FaultName]

    public init(_ faults: [FaultName], when condition: ProfileCondition) {
        self.condition = condition
        self.faults = faults
    }
}

/// A test's side of the fault-to-test contract: the accessory faults written to break it, declared next
/// to its body. `aware-conform selftest` runs the catalogue once per fault and checks that exactly the
/// tests whose contract names that fault fail.
public struct FaultContract: Sendable {
    /// The faults aimed at the rule the test checks.
    public var brokenBy: [FaultName]
    /// The shared steps the test takes first: their faults (and those of the steps before them) break it too.
    public var steps: [SharedStep]
    /// Faults that break the test only with some profiles.
    public var conditional: [ConditionalFaults]
    /// The test can fail at all only where these hold: a profile that gates the test away leaves no
    /// fault that can make it fail.
    public var onlyIf: [ProfileCondition]

    public init(
        brokenBy: [FaultName] = [],
        steps: [SharedStep] = [],
        conditional: [ConditionalFaults] = [],
        onlyIf: [ProfileCondition] = []
    ) {
        self.brokenBy = brokenBy
        self.steps = steps
        self.conditional = conditional
        self.onlyIf = onlyIf
    }

    /// The faults that must make the test fail against an accessory with `profile`.
    public func faults(for profile: ProfileFacts?) -> Set<FaultName> {
        guard onlyIf.allSatisfy({ $0.holds(for: profile) }) else { return [] }
        var faults = Set(brokenBy).union(steps.flatMap(\.faults))
        for extra in conditional where extra.condition.holds(for: profile) { faults.formUnion(extra.faults) }
        return faults
    }

    /// Every fault the contract names, whatever the profile.
    public var everyFault: Set<FaultName> {
        Set(brokenBy).union(steps.flatMap(\.faults)).union(conditional.flatMap(\.faults))
    }

    /// The steps the test takes, with those they come after, earliest first.
    public var stepChain: [SharedStep] {
        var chain: [SharedStep] = []
        for step in steps.flatMap(\.chain) where !chain.contains(step) { chain.append(step) }
        return chain
    }
}
