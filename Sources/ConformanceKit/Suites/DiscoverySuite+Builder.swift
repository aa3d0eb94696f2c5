import AwareCore
import AwareProtocol
import AwareWire

extension DiscoverySuite {
    /// Shared machinery for the discovery tests.
    struct Builder: Sendable {
        let target: any AccessoryTarget
        let faults: [String]

        func test(
            _ id: String,
            _ title: String,
            tags: [String] = [],
            requires: [TestRequirement] = [],
            needsReconfigure: Bool = false,
            needsReconfigureWhen: ProfileCondition? = nil,
            needsPublishUpdate: Bool = false,
            needsCluster: Bool = false,
            budget: Interval = .seconds(60),
            brokenBy: [FaultName],
            steps: [SharedStep],
            alsoBrokenBy conditional: [ConditionalFaults] = [],
            _ body: @escaping @Sendable (TestContext, Builder) throws -> Void
        ) throws -> ConformanceTest {
            let builder = self
            return try ConformanceTest(
                id: id,
                title: title,
                tags: ["discovery"] + tags,
                requires: requires,
                needsReconfigure: needsReconfigure,
                needsReconfigureWhen: needsReconfigureWhen,
                needsPublishUpdate: needsPublishUpdate,
                needsCluster: needsCluster,
                budget: budget,
                faultContract: FaultContract(brokenBy: brokenBy, steps: steps, conditional: conditional)
            ) { context in try body(context, builder) }
        }

        /// The profile's first service (every profile has one).
        func firstService(_ context: TestContext) throws -> ServiceFacts {
            try context.require(context.capabilities.profile?.services.first, "the profile has a service")
        }

        /// The first service that satisfies `predicate`.
        func service(_ context: TestContext, where predicate: (ServiceFacts) -> Bool) throws -> ServiceFacts {
            try context.require(
                context.capabilities.profile?.services.first(where: predicate),
                "the profile has a suitable service"
            )
        }

        /// Index of `service` in the profile, for variants.
        func index(of service: ServiceFacts, _ context: TestContext) -> Int {
            context.capabilities.profile?.services.firstIndex(of: service) ?? 0
        }

        /// Opens a scenario; a variant on a target that cannot reconfigure skips the test.
        func open(
            _ context: TestContext,
            variant: ProfileVariant? = nil,
            unsynchronized: Bool = false,
            distance: Double = 2
        ) throws -> Scenario {
            if variant != nil || unsynchronized, case .unavailable(let reason) = context.capabilities.reconfigure {
                try context.skip(
                    "needs \(variant.map { "a profile variant (\($0))" } ?? "the accessory in USD mode"); \(reason)"
                )
            }
            let request = SessionRequest(
                seed: context.seed,
                variant: variant,
                faults: faults,
                unsynchronized: unsynchronized,
                phoneDistance: distance
            )
            return try Scenario(context, target: target, request: request)
        }

        /// Opens a scenario in which one field of `service` is changed (a profile variant).
        func open(
            _ context: TestContext,
            setting key: String,
            to json: String,
            of service: ServiceFacts,
            distance: Double = 2
        ) throws -> Scenario {
            let variant = ProfileVariant([.setServiceField(index: index(of: service, context), key: key, json: json)])
            return try open(context, variant: variant, distance: distance)
        }

        /// Subscribes to `service` and fails the test unless the accessory is found.
        func requireDiscovery(
            _ context: TestContext,
            _ scenario: Scenario,
            _ service: String,
            mode: SubscribeMode = .active
        ) throws -> DiscoveryResult {
            try context.require(
                discover(scenario, SubscribeConfiguration(serviceName: service, mode: mode)),
                "the accessory was discovered"
            )
        }

        /// Subscribes and waits for a matched result for `service`; nil when none came.
        @discardableResult
        func discover(
            _ scenario: Scenario,
            _ configuration: SubscribeConfiguration,
            timeout: Interval? = nil
        ) -> DiscoveryResult? {
            let timeout = timeout ?? scenario.discoveryWindow
            scenario.withPhone { $0.subscribe(configuration) }
            let name = configuration.serviceName
            _ = scenario.wait(timeout) { !$0.matchedResults(serviceName: name).isEmpty }
            return scenario.read { $0.matchedResults(serviceName: name).first }
        }
    }
}
