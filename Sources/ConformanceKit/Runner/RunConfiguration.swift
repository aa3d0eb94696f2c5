import AwareProtocol

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
        proposalShape: NDPProposalShape = .basic
    ) {
        self.proposalShape = proposalShape
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
