import AwareCore
import AwareProtocol
import AwareWire

/// How to run: the flags of `aware-conform run`, resolved by the executable.
public struct RunConfiguration: Sendable {
    public var capabilities: TargetCapabilities
    public var baseSeed: UInt64
    public var selection: TestSelection
    public var jobs: Int
    public var shard: Shard?
    public var iterations: Int
    public var evidence: EvidencePolicy
    /// The wall-clock guard of tests that do not set their own.
    public var defaultWallLimit: Duration
    public var clock: TestClock
    public var rerun: RerunCommand
    /// Written to the reports' metadata.
    public var toolVersion: String
    /// Names the run's default evidence directory; nil: `<UTC start time>-seed-<seed>`.
    public var runID: String?
    /// Faults to apply to the tests (`--fault-plan FILE`, docs/reference/fault-plans.md).
    public var faultPlan: FaultPlan?
    /// How the runner's phone lays out its data path proposals (`--proposal-shape`).
    public var proposalShape: NDPProposalShape
    /// How the runner's phone behaves where real phones differ (`--phone`, docs/phones.md).
    public var phone: PhoneProfile

    public init(
        capabilities: TargetCapabilities,
        baseSeed: UInt64,
        selection: TestSelection = .all,
        jobs: Int = 1,
        shard: Shard? = nil,
        iterations: Int = 1,
        evidence: EvidencePolicy = .default,
        defaultWallLimit: Duration = .seconds(60),
        clock: TestClock = .virtual,
        rerun: RerunCommand,
        toolVersion: String,
        runID: String? = nil,
        faultPlan: FaultPlan? = nil,
        proposalShape: NDPProposalShape = .basic,
        phone: PhoneProfile = .reference
    ) {
        self.proposalShape = proposalShape
        self.phone = phone
        self.capabilities = capabilities
        self.baseSeed = baseSeed
        self.selection = selection
        self.jobs = jobs
        self.shard = shard
        self.iterations = iterations
        self.evidence = evidence
        self.defaultWallLimit = defaultWallLimit
        self.clock = clock
        self.rerun = rerun
        self.toolVersion = toolVersion
        self.runID = runID
        self.faultPlan = faultPlan
    }
}

/// Why a run cannot start: a usage or profile error (exit 2). Raised before any test runs, so a
/// mistake never turns into a silent empty run (Matter's certification harness ran nothing when no PICS file was given: project-chip/certification-tool issue #446).
public enum RunSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingProfile
    case emptyProfile(path: String)
    case unmatchedPatterns([String])
    case noTestsSelected
    case invalidShard(String)
    case invalidJobs(Int)
    case invalidIterations(Int)

    public var description: String {
        switch self {
        case .missingProfile:
            "no profile: pass --profile FILE (the profile decides which tests apply)"
        case .emptyProfile(let path):
            "the profile \(path) publishes no service: there is nothing to test"
        case .unmatchedPatterns(let patterns):
            "--only \(patterns.joined(separator: ", ")) matches no test (see `aware-conform list`)"
        case .noTestsSelected:
            "the --only and --skip patterns leave no test to run"
        case .invalidShard(let text):
            "--shard \(text): expected I/N with 1 <= I <= N"
        case .invalidJobs(let jobs):
            "--jobs \(jobs): expected at least 1"
        case .invalidIterations(let iterations):
            "--iterations \(iterations): expected at least 1"
        }
    }

    public var exitCode: RunExitCode { .usageOrProfileError }
}

/// `--shard I/N`: this run takes every N-th test of the sorted selection, starting with the I-th
/// (I counts from 1). Test k (0-based, in catalogue order) belongs to shard `k % N + 1`, so the N
/// shards together run every selected test exactly once, and assignment depends only on the selection.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(RunSetupError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidShard("\(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init(_ text: String) throws(RunSetupError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidShard(text)
        }
        try self.init(index: index, count: count)
    }

    public func owns(position: Int) -> Bool { position % count + 1 == index }

    public var description: String { "\(index)/\(count)" }
}

/// Which clock a test's time (`t` in events, its virtual duration, its budget) is read from.
public enum TestClock: String, Hashable, Sendable {
    /// The test's simulated air sets the time (`TestContext.advanceVirtualTime(to:)`); it starts at zero.
    case virtual
    /// Wall-clock time since the test began: targets that talk to real processes.
    case wall
}

/// How seeds are derived (docs/reference/reports.md, "Seeds"), so that anyone can recompute them:
/// a test's seed is the first SplitMix64 output of `base XOR FNV-1a-64(ID)`, and iteration k (from 1)
/// runs with the base seed `base + k - 1`. Rerunning iteration k alone is then `--seed <base + k - 1>
/// --iterations 1`.
public enum TestSeed {
    public static func derive(base: UInt64, id: TestID) -> UInt64 {
        derive(base: base, label: id.description)
    }

    public static func derive(base: UInt64, label: String) -> UInt64 {
        var generator = SeededGenerator(seed: base ^ fnv1a64(label))
        return generator.next()
    }

    /// The base seed iteration `iteration` (from 1) runs with.
    public static func base(_ base: UInt64, iteration: Int) -> UInt64 {
        base &+ UInt64(truncatingIfNeeded: max(iteration, 1) - 1)
    }

    /// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the UTF-8 octets.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for octet in text.utf8 {
            hash ^= UInt64(octet)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Renders the command that reruns one failing test alone: the run's own command line (given by the
/// `aware-conform` executable: program, subcommand, `--target`, `--profile`, ...) followed by
/// `--seed <base> --only <ID> --iterations 1`.
public struct RerunCommand: Hashable, Sendable {
    /// `["aware-conform", "run", "--profile", "Profiles/drone.json", "--target", "embedded"]`: everything
    /// but the selection, seed, iterations, jobs, shard and report flags.
    public var baseArguments: [String]

    public init(baseArguments: [String]) {
        self.baseArguments = baseArguments
    }

    public func render(baseSeed: UInt64, id: TestID) -> String {
        (baseArguments + ["--seed", String(baseSeed), "--only", id.description, "--iterations", "1"])
            .map(Self.shellQuoted).joined(separator: " ")
    }

    /// POSIX shell quoting: plain words stay bare, anything else goes in single quotes.
    public static func shellQuoted(_ argument: String) -> String {
        let plain = argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "_-./:=@%+,".unicodeScalars.contains(scalar))
        }
        if plain && !argument.isEmpty { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
