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
    /// The test needs a profile variant only for some profiles (a second service where the
    /// profile has one, the other performance mode where it offers both): when this holds.
    public let needsReconfigureWhen: ProfileCondition?
    /// The test factory-resets the accessory (every pairing forgotten).
    public let needsFactoryReset: Bool
    /// The test has the accessory update a service's publish while it runs (new TXT record),
    /// which `accessory-emu` does on its control socket's `update-service`.
    public let needsPublishUpdate: Bool
    /// The test judges from the accessory's own event log, which only `accessory-emu` keeps
    /// (docs/reference/events.md); the air shows nothing of it.
    public let needsEventLog: Bool
    /// The test needs a NAN cluster (synchronization, discovery windows): every data path does, as
    /// schedules count slots from the cluster's TSF (nan-wire-reference.md 4). An air that carries
    /// only NAN USD has none.
    public let needsCluster: Bool
    /// The test judges protected frames after pairing (nan-wire-reference.md 3.8): the NIK exchange,
    /// what follows from it (reconnection), or protection itself. A phone whose radio cannot send or
    /// receive them could only fail, or pass without seeing anything.
    public let needsProtectedFrames: Bool
    /// How much virtual time the test may spend; the body's simulated air stops there.
    public let budget: Interval
    /// How long the runner waits in wall-clock time before calling it a timeout; nil: the run's default.
    public let wallLimit: Duration?
    /// The accessory faults written to break the test (what `aware-conform selftest` checks).
    public let faultContract: FaultContract
    public let body: TestBody

    public init(
        id: String,
        title: String,
        tags: [String] = [],
        requires requirements: [TestRequirement] = [],
        needsRestart: Bool = false,
        needsReconfigure: Bool = false,
        needsReconfigureWhen: ProfileCondition? = nil,
        needsFactoryReset: Bool = false,
        needsPublishUpdate: Bool = false,
        needsEventLog: Bool = false,
        needsCluster: Bool = false,
        needsProtectedFrames: Bool = false,
        budget: Interval = .seconds(Int64(30)),
        wallLimit: Duration? = nil,
        faultContract: FaultContract = FaultContract(),
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
        self.needsReconfigureWhen = needsReconfigureWhen
        self.needsFactoryReset = needsFactoryReset
        self.needsPublishUpdate = needsPublishUpdate
        self.needsEventLog = needsEventLog
        self.needsCluster = needsCluster
        self.needsProtectedFrames = needsProtectedFrames
        self.budget = budget
        self.wallLimit = wallLimit
        self.faultContract = faultContract
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
        needsReconfigureWhen: ProfileCondition? = nil,
        needsFactoryReset: Bool = false,
        needsPublishUpdate: Bool = false,
        needsEventLog: Bool = false,
        needsCluster: Bool = false,
        needsProtectedFrames: Bool = false,
        budget: Interval = .seconds(Int64(30)),
        wallLimit: Duration? = nil,
        faultContract: FaultContract = FaultContract(),
        _ body: @escaping @Sendable (TestContext) throws -> Void
    ) throws(CatalogueError) {
        try self.init(
            id: id,
            title: title,
            tags: tags,
            requires: requirements,
            needsRestart: needsRestart,
            needsReconfigure: needsReconfigure,
            needsReconfigureWhen: needsReconfigureWhen,
            needsFactoryReset: needsFactoryReset,
            needsPublishUpdate: needsPublishUpdate,
            needsEventLog: needsEventLog,
            needsCluster: needsCluster,
            needsProtectedFrames: needsProtectedFrames,
            budget: budget,
            wallLimit: wallLimit,
            faultContract: faultContract,
            body: .blocking(body)
        )
    }

    public var group: String { id.group }

    /// Whether the test runs here. Target abilities are checked first: a test that needs a restart is
    /// skipped on a `socket` target without a way to restart the accessory whatever the profile
    /// says, and the reason names the option that would run it.
    public func applicability(on capabilities: TargetCapabilities) -> Applicability {
        if needsRestart, case .unavailable(let reason) = capabilities.restart {
            return .notApplicable(reason: "needs to restart the accessory: \(reason)")
        }
        if needsFactoryReset, case .unavailable(let reason) = capabilities.factoryReset {
            return .notApplicable(reason: "needs to factory-reset the accessory: \(reason)")
        }
        if needsEventLog, case .unavailable(let reason) = capabilities.eventLog {
            return .notApplicable(reason: "judges from the accessory's event log: \(reason)")
        }
        if needsReconfigure, case .unavailable(let reason) = capabilities.reconfigure {
            return .notApplicable(reason: "needs to reconfigure the accessory: \(reason)")
        }
        if needsPublishUpdate, case .unavailable(let reason) = capabilities.publishUpdate {
            return .notApplicable(reason: "needs the accessory to update its publish: \(reason)")
        }
        if needsCluster, case .unavailable(let reason) = capabilities.cluster {
            return .notApplicable(reason: "needs a NAN cluster: \(reason)")
        }
        if needsProtectedFrames, case .unavailable(let reason) = capabilities.protectedFrames {
            return .notApplicable(reason: "needs protected frames after pairing: \(reason)")
        }
        guard let profile = capabilities.profile else {
            return .notApplicable(reason: "no profile")
        }
        if let condition = needsReconfigureWhen, condition.holds(for: profile),
            case .unavailable(let reason) = capabilities.reconfigure
        {
            return .notApplicable(reason: "needs a profile variant (\(condition)): \(reason)")
        }
        for requirement in requirements where !requirement.isMet(by: profile) {
            return .notApplicable(reason: requirement.unmetReason(profile))
        }
        return .applicable
    }
}

/// What a test does. Either form runs on a thread of its own, so a body that blocks or loops forever
/// cannot hold up the run: the runner stops waiting at the wall-clock guard and moves on.
public enum TestBody: Sendable {
    /// Runs to completion on its own thread; may block (socket reads, waiting for a child process).
    case blocking(@Sendable (TestContext) throws -> Void)
    /// Runs as a task; the runner cancels it when the wall-clock guard fires.
    case async(@Sendable (TestContext) async throws -> Void)
}

/// What a test needs the profile to declare. A closed set, so `list` can explain every gate in words and
/// a profile cannot be "empty" by accident: each case names one fact of `ProfileFacts`.
public enum TestRequirement: Hashable, Sendable, CustomStringConvertible {
    /// A service published unsolicited (publish type unsolicited or both).
    case unsolicitedPublish
    /// A service that answers active subscribes (publish type solicited or both).
    case solicitedPublish
    /// A service with a matching filter.
    case matchFilter
    /// A service whose publish has a TTL.
    case publishTTL
    /// A service published unsolicited whose profile states its publish period (`publishPeriodDWs`).
    case publishPeriod
    /// Pairing offered (a pairing section in the profile).
    case pairing
    /// At least this many published services.
    case services(atLeast: Int)
    /// A service whose TXT record carries this key (compared case-insensitively, as DNS-SD keys are).
    case txtKey(String)
    /// A service that takes data paths (`datapath` in the profile).
    case dataPath
    /// The profile offers this performance mode ("realtime").
    case performanceMode(String)
    /// A file service in the profile's app.
    case fileService
    /// A fresh PIN for every attempt (`pairing.pin` without `fixed`).
    case freshPIN
    /// The accessory keeps pairing keys for at least this many phones (`pairing.maxPairedDevices`).
    case pairedDevices(atLeast: Int)
    /// At least this many phones may hold data paths at once (`radio.maxDataPathPeers`).
    case dataPathPeers(atLeast: Int)
    /// At most this many (a test that brings up one data path more than the limit).
    case dataPathPeerLimit(atMost: Int)
    /// The accessory speaks the bench's own application protocol (`app.benchProtocol`): for what
    /// standard traffic cannot show, such as the accessory's own report.
    case benchProtocol
    /// Traffic the accessory's service sends of its own: `app.telemetry` on its data service, or
    /// a stream asked for with the bench's protocol.
    case ownTraffic
    /// A service the accessory subscribes to (`subscriptions`), the reverse role; with
    /// `dataPath`, one it opens a data path for.
    case subscription(dataPath: Bool)

    public func isMet(by profile: ProfileFacts) -> Bool {
        switch self {
        case .unsolicitedPublish: profile.services.contains { $0.publishesUnsolicited }
        case .solicitedPublish: profile.services.contains { $0.answersSubscribes }
        case .matchFilter: profile.services.contains { $0.matchFilter != nil }
        case .publishTTL: profile.services.contains { $0.ttlSeconds != nil }
        case .publishPeriod: profile.services.contains { $0.publishPeriodDWs != nil && $0.publishesUnsolicited }
        case .pairing: profile.offersPairing
        case .services(let count): profile.services.count >= count
        case .txtKey(let key):
            profile.services.contains { service in service.txtKeys.contains { $0.lowercased() == key.lowercased() } }
        case .dataPath: profile.dataPath != nil
        case .performanceMode(let mode): profile.dataPath?.serviceClasses[mode] != nil
        case .fileService: profile.dataPath?.fileService != nil
        case .freshPIN: profile.offersPairing && profile.pin?.isFixed != true
        case .pairedDevices(let count): (profile.pairedDeviceLimit?.count ?? 0) >= count
        case .dataPathPeers(let count): profile.maxDataPathPeers >= count
        case .dataPathPeerLimit(atMost: let count): profile.maxDataPathPeers <= count
        case .benchProtocol: profile.dataPath?.benchProtocol == true
        case .ownTraffic:
            profile.dataPath.map { $0.benchProtocol || $0.telemetry?.service == $0.service } ?? false
        case .subscription(let dataPath): profile.subscriptions.contains { !dataPath || $0.dataPath }
        }
    }

    /// What the test needs, in words: "a service published unsolicited".
    public var description: String {
        switch self {
        case .unsolicitedPublish: "a service published unsolicited"
        case .solicitedPublish: "a service that answers active subscribes (solicited)"
        case .matchFilter: "a service with a matching filter"
        case .publishTTL: "a service published with a TTL"
        case .publishPeriod: "a service published unsolicited with a stated period (publishPeriodDWs)"
        case .pairing: "pairing offered"
        case .services(let count): "at least \(count) services"
        case .txtKey(let key): "a service whose TXT record has the key \(key)"
        case .dataPath: "a service that takes data paths"
        case .performanceMode(let mode): "the \(mode) performance mode"
        case .fileService: "a file service"
        case .freshPIN: "a fresh PIN for every pairing attempt"
        case .pairedDevices(let count): "pairing keys kept for at least \(count) phones"
        case .dataPathPeers(let count): "data paths with at least \(count) phones at once"
        case .dataPathPeerLimit(atMost: let count): "data paths with at most \(count) phones at once"
        case .benchProtocol: "the bench's application protocol (app.benchProtocol)"
        case .ownTraffic: "traffic the accessory's service sends of its own"
        case .subscription(let dataPath):
            dataPath
                ? "a service the accessory subscribes to and opens a data path for (subscriptions)"
                : "a service the accessory subscribes to (subscriptions)"
        }
    }

    /// The skip reason when the profile lacks it: "the profile has no service published unsolicited".
    public func unmetReason(_ profile: ProfileFacts) -> String {
        switch self {
        case .pairing: "the profile does not offer pairing"
        case .services(let count):
            "the profile publishes \(profile.services.count) service\(profile.services.count == 1 ? "" : "s"), "
                + "the test needs at least \(count)"
        case .performanceMode(let mode): "the profile does not offer the \(mode) performance mode"
        case .freshPIN:
            !profile.offersPairing
                ? "the profile does not offer pairing"
                : "the profile's PIN is fixed (pairing.pin.fixed): every attempt shows the same PIN"
        case .pairedDevices(let count):
            "the profile keeps pairing keys for \(profile.pairedDeviceLimit?.count ?? 0) phone(s) "
                + "(pairing.maxPairedDevices), the test needs \(count)"
        case .dataPathPeers(let count):
            "the profile serves \(profile.maxDataPathPeers) phone(s) at a time (radio.maxDataPathPeers), "
                + "the test needs \(count)"
        case .dataPathPeerLimit(atMost: let count):
            "the profile serves \(profile.maxDataPathPeers) phones at a time (radio.maxDataPathPeers); the test "
                + "brings up data paths for at most \(count) before the one too many"
        case .benchProtocol:
            "the profile does not declare the bench's application protocol (app.benchProtocol): the verdict "
                + "needs what only that protocol carries"
        case .ownTraffic:
            "the profile describes no traffic the accessory sends of its own (app.telemetry on its data service) "
                + "and no bench protocol (app.benchProtocol): echo replies are its IP stack's, not its service's"
        case .subscription(let dataPath):
            "the profile lists no service the accessory subscribes to (subscriptions"
                + (dataPath ? " with datapath true" : "") + "): the accessory only publishes"
        case .publishPeriod:
            "the profile states no publish period (publishPeriodDWs) for a service published unsolicited: the "
                + "accessory announces in every discovery window"
        case .unsolicitedPublish, .solicitedPublish, .matchFilter, .publishTTL, .txtKey, .dataPath, .fileService:
            "the profile has no \(description.dropFirst(2))"
        }
    }
}

/// Whether a test runs against a profile on a target, and if not, the reason reported as its skip.
public enum Applicability: Hashable, Sendable {
    case applicable
    case notApplicable(reason: String)

    public var isApplicable: Bool { self == .applicable }

    public var reason: String? {
        if case .notApplicable(let reason) = self { return reason }
        return nil
    }
}

/// Everything a test's applicability is decided on: the profile's facts and what the target can do.
///
/// `embedded` and `spawn` own their accessory and can restart and reconfigure it; `socket` talks to an
/// accessory someone else started, so it sets both abilities to `.unavailable` with that reason.
public struct TargetCapabilities: Hashable, Sendable {
    /// How reports name the target: `embedded`, `spawn`, `socket:/run/user/1000/aware.sock`.
    public var target: String
    /// Nil when no profile was given; the runner refuses to start then (RunSetupError.missingProfile).
    public var profile: ProfileFacts?
    public var restart: TargetAbility
    public var reconfigure: TargetAbility
    /// The factory reset: `accessory-emu reset` where the runner owns the accessory, the control
    /// socket's `factory-reset`, or the operator's `--reset-command`.
    public var factoryReset: TargetAbility
    /// Having the accessory update a service's publish (a new TXT record): `accessory-emu` started by
    /// the runner, or on its control socket (`update-service`).
    public var publishUpdate: TargetAbility
    /// The accessory's own event log (docs/reference/events.md): `accessory-emu` started by the
    /// runner shows it; a device on an air does not.
    public var eventLog: TargetAbility
    /// A NAN cluster between the phone and the accessory: unavailable where the phone's air
    /// carries only NAN USD (a station interface through nl80211, docs/guides/nl80211.md).
    public var cluster: TargetAbility
    /// Protected NAN frames between the phone and the accessory after pairing: unavailable where
    /// the phone's radio neither sends nor receives them (a station interface through nl80211).
    public var protectedFrames: TargetAbility

    public init(
        target: String,
        profile: ProfileFacts?,
        restart: TargetAbility = .available,
        reconfigure: TargetAbility = .available,
        factoryReset: TargetAbility? = nil,
        publishUpdate: TargetAbility? = nil,
        eventLog: TargetAbility = .available,
        cluster: TargetAbility = .available,
        protectedFrames: TargetAbility = .available
    ) {
        self.target = target
        self.profile = profile
        self.restart = restart
        self.reconfigure = reconfigure
        self.factoryReset = factoryReset ?? restart
        self.publishUpdate = publishUpdate ?? reconfigure
        self.eventLog = eventLog
        self.cluster = cluster
        self.protectedFrames = protectedFrames
    }
}

/// Whether the target lets the runner do something to the accessory (restart it, run it with another
/// profile variant), and if not, why: the reason becomes the skip reason of every test that needs it.
public enum TargetAbility: Hashable, Sendable {
    case available
    case unavailable(reason: String)

    public var isAvailable: Bool { self == .available }
}
