/// One run of a test body.
public struct IterationResult: Hashable, Sendable {
    /// 1-based.
    public var iteration: Int
    public var seed: UInt64
    /// The base seed that reruns this iteration alone (docs/reference/reports.md, "Seeds").
    public var baseSeed: UInt64
    public var verdict: TestVerdict
    /// The first failure, the error, the timeout or the skip reason; nil on pass.
    public var message: String?
    public var errorOrigin: ErrorOrigin?
    public var failures: [RecordedFailure]
    public var wallSeconds: Double
    /// Virtual time the test spent; nil under the wall clock.
    public var virtualSeconds: Double?
    /// Nil when evidence was not kept for this iteration.
    public var evidence: EvidenceFiles?
    /// Latency histograms a performance test recorded; empty for other tests.
    public var latency: [LatencyHistogram]

    public init(
        iteration: Int,
        seed: UInt64,
        baseSeed: UInt64,
        verdict: TestVerdict,
        message: String? = nil,
        errorOrigin: ErrorOrigin? = nil,
        failures: [RecordedFailure] = [],
        wallSeconds: Double,
        virtualSeconds: Double?,
        evidence: EvidenceFiles? = nil,
        latency: [LatencyHistogram] = []
    ) {
        self.iteration = iteration
        self.seed = seed
        self.baseSeed = baseSeed
        self.verdict = verdict
        self.message = message
        self.errorOrigin = errorOrigin
        self.failures = failures
        self.wallSeconds = wallSeconds
        self.virtualSeconds = virtualSeconds
        self.evidence = evidence
        self.latency = latency
    }
}
