import AwareCore
import AwareWire

/// One test of the catalogue: its stable identity, what it needs, its limits and its body.
public struct ConformanceTest: Sendable {
    public let id: TestID
    public let title: String
    public let tags: [TestTag]
    /// What the profile must declare; a test whose requirements are unmet is skipped with the reason.
    public let requirements: [TestRequirement]
    /// The test restarts the accessory (reboot, state kept).
    public let needsRestart: Bool
    /// The test runs the accessory with another profile variant or fault switch.
    public let needsReconfigure: Bool
    /// How much virtual time the test may spend; the body's simulated air stops there.
    public let budget: Interval
    /// How long the runner waits in wall-clock time before calling it a timeout; nil: the run's default.
    public let wallLimit: Duration?
    public let body: TestBody

    public init(
        id: String,
        title: String,
        tags: [String] = [],
        requires requirements: [TestRequirement] = [],
        needsRestart: Bool = false,
        needsReconfigure: Bool = false,
        budget: Interval = .seconds(Int64(30)),
        wallLimit: Duration? = nil,
        body: TestBody
    ) throws(CatalogueError) {
        self.id = try TestID(id)
        self.title = title
        var parsedTags: [TestTag] = []
        for tag in tags { parsedTags.append(try TestTag(tag)) }
        self.tags = parsedTags.sorted()
        self.requirements = requirements
        self.needsRestart = needsRestart
        self.needsReconfigure = needsReconfigure
        self.budget = budget
        self.wallLimit = wallLimit
        self.body = body
    }

    /// A test with a blocking body, written as a trailing closure.
    public init(
        id: String,
        title: String,
        tags: [String] = [],
        requires requirements: [TestRequirement] = [],
        needsRestart: Bool = false,
        needsReconfigure: Bool = false,
        budget: Interval = .seconds(Int64(30)),
        wallLimit: Duration? = nil,
        _ body: @escaping @Sendable (TestContext) throws -> Void
    ) throws(CatalogueError) {
        try self.init(
            id: id,
            title: title,
            tags: tags,
            requires: requirements,
            needsRestart: needsRestart,
            needsReconfigure: needsReconfigure,
            budget: budget,
            wallLimit: wallLimit,
            body: .blocking(body)
        )
    }

    public var group: String { id.group }

    /// Whether the test runs here. Target abilities are checked first: a test that needs a restart is
    /// skipped on a `socket` target whatever the profile says, and the reason says so.
    public func applicability(on capabilities: TargetCapabilities) -> Applicability {
        if needsRestart, case .unavailable(let reason) = capabilities.restart {
            return .notApplicable(reason: "needs to restart the accessory: \(reason)")
        }
        if needsReconfigure, case .unavailable(let reason) = capabilities.reconfigure {
            return .notApplicable(reason: "needs to reconfigure the accessory: \(reason)")
        }
        guard let profile = capabilities.profile else {
            return .notApplicable(reason: "no profile")
        }
        for requirement in requirements where !requirement.isMet(by: profile) {
            return .notApplicable(reason: requirement.unmetReason(profile))
        }
        return .applicable
    }
}
