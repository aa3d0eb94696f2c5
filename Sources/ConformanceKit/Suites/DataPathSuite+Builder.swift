import AwareCore
import AwareDevice
import AwareProtocol
import AwareWire
import Foundation

extension DataPathSuite {
    /// Shared machinery for the data-path and performance tests. Pairing and discovery come from
    /// the pairing suite's builder: a data path starts where a pairing ends.
    struct Builder: Sendable {
        let target: any AccessoryTarget
        let faults: [String]
        var pairing: PairingSuite.Builder { PairingSuite.Builder(target: target, faults: faults) }

        /// A data-path test. `mode` is its premise when it has one (a latency budget is realtime's,
        /// a throughput floor bulk's): the profile must offer it, and where the accessory's default
        /// is another mode the test needs a variant. Without one the test asks for the default mode.
        func test(
            _ id: String,
            _ title: String,
            tags: [String] = [],
            mode: PerformanceMode? = nil,
            requires: [TestRequirement] = [],
            needsReconfigure: Bool = false,
            budget: Interval = .seconds(120),
            brokenBy: [FaultName],
            steps: [SharedStep],
            conditional: [ConditionalFaults] = [],
            onlyIf: [ProfileCondition] = [],
            _ body: @escaping @Sendable (TestContext, Builder) throws -> Void
        ) throws -> ConformanceTest {
            let builder = self
            var conditional = conditional
            // An accessory that offers the bulk schedule while it listens in realtime turns down the
            // realtime proposal of every phone (INVALID_AVAILABILITY): every test that needs a data
            // path in a realtime default fails on it.
            let needsLink = steps.contains { $0.chain.contains(.securedDataPath) }
            if mode == nil, needsLink {
                let realtime = ProfileCondition.defaultMode(is: .realtime)
                let same = conditional.firstIndex { $0.condition.description == realtime.description }
                let faults = (same.map { conditional.remove(at: $0).faults } ?? []) + ["perf-realtime-as-bulk"]
                conditional.append(ConditionalFaults(faults, when: realtime))
            }
            return try ConformanceTest(
                id: id,
                title: title,
                tags: ["datapath"] + tags,
                requires: [.pairing, .dataPath] + requires + (mode.map { [.performanceMode($0.rawValue)] } ?? []),
                needsReconfigure: needsReconfigure,
                needsReconfigureWhen: mode.map { .defaultMode(isNot: $0, in: target.capabilities.profile) },
                needsCluster: true,
                budget: budget,
                faultContract: FaultContract(
                    brokenBy: brokenBy,
                    steps: steps,
                    conditional: conditional,
                    onlyIf: [DataPathSuite.takesDataPaths] + (mode.map { [.offers($0)] } ?? []) + onlyIf
                )
            ) { context in try body(context, builder) }
        }

        func facts(_ context: TestContext) throws -> DataPathFacts {
            try context.require(
                context.capabilities.profile?.dataPath,
                "the profile has a service that takes data paths"
            )
        }

        /// The accessory's listener in `mode`: a profile variant (the mode is the listener's,
        /// apple-peer-model.md 1.7).
        static func modeVariant(_ mode: PerformanceMode) -> ProfileVariant {
            ProfileVariant([.setField(path: ["performance", "default"], json: "\"\(mode.rawValue)\"")])
        }

        /// The mode the accessory listens in when nobody changes its profile
        /// (`performance.default`): what every test whose premise is not a mode asks for, so
        /// that it runs against an accessory the runner cannot reconfigure.
        func defaultMode(_ context: TestContext) throws -> PerformanceMode {
            let name = try facts(context).defaultMode
            return try context.require(PerformanceMode(rawValue: name), "a known default performance mode (\(name))")
        }

        /// The service class the profile gives `mode` (`performance.<mode>.serviceClass`): what
        /// the phone's app asks for on a data path in that mode. Best effort for a mode the
        /// profile does not offer (a request the accessory must refuse, WA/PERF/BI-02).
        func serviceClass(_ context: TestContext, _ mode: PerformanceMode) throws -> ServiceClass {
            guard let raw = try facts(context).serviceClasses[mode.rawValue] else { return .bestEffort }
            return try context.require(
                ServiceClass(rawValue: raw),
                "a known service class (\(raw)) for \(mode.rawValue)"
            )
        }

        /// Opens a scenario with the accessory listening in `mode` and pairs: the profile as it
        /// is when `mode` is its default, else a variant (the test declares that with
        /// `needsReconfigureWhen: .defaultModeIsNot(mode)`).
        func openPaired(_ context: TestContext, mode: PerformanceMode) throws -> (Scenario, DiscoveryResult) {
            let variant = try defaultMode(context) == mode ? nil : Self.modeVariant(mode)
            return try openPaired(context, variant: variant)
        }

        /// Opens a scenario (with `variant`), finds the accessory's data service and pairs with it.
        func openPaired(_ context: TestContext, variant: ProfileVariant? = nil) throws -> (Scenario, DiscoveryResult) {
            let scenario = try pairing.open(context, variant: variant)
            do {
                let result = try discover(context, scenario, service: try facts(context).service)
                try pairing.requirePairing(context, scenario, result, cached: false)
                return (scenario, result)
            } catch {
                scenario.finish()
                throw error
            }
        }

        /// Subscribes to `service` and returns the first matched result.
        func discover(
            _ context: TestContext,
            _ scenario: Scenario,
            service: String,
            phone: Phone? = nil
        ) throws -> DiscoveryResult {
            try pairing.discover(context, scenario, phone: phone, service: service)
        }

        /// The application port the profile gives `service`: the file service's own, else the
        /// data service's `datapath.port`.
        func profilePort(_ context: TestContext, service: String) throws -> Int {
            let facts = try facts(context)
            return service == facts.fileService?.service ? facts.fileService?.port ?? facts.port : facts.port
        }

        /// Asks for a data path and waits for the outcome. The phone's app uses the port the
        /// accessory's response names; `fallsBackToServicePort` lets it use the profile's when
        /// the response names none (``PhoneDataPathRequest/fallsBackToServicePort``).
        func request(
            _ context: TestContext,
            _ scenario: Scenario,
            _ result: DiscoveryResult,
            phone: Phone? = nil,
            mode: PerformanceMode? = nil,
            serviceClass: ServiceClass? = nil,
            security: PhoneDataPathRequest.Security = .paired,
            proposal: NDPSchedule? = nil,
            shape: NDPProposalShape? = nil,
            proposedNDC: NDCSchedule? = nil,
            fallsBackToServicePort: Bool = true,
            timeout: Interval = DataPathSuite.setupTimeout
        ) throws -> (DataLinkID, DataPathOutcome) {
            let phone = phone ?? scenario.phone
            let facts = try facts(context)
            let mode = try mode ?? defaultMode(context)
            let serviceClass = try serviceClass ?? self.serviceClass(context, mode)
            let port = try profilePort(context, service: result.serviceName)
            var id: DataLinkID?
            scenario.session.perform {
                id = phone.dataPaths.open(
                    PhoneDataPathRequest(
                        accessory: result.publisherAddress,
                        publishID: result.publishInstanceID,
                        serviceName: result.serviceName,
                        mode: mode,
                        serviceClass: serviceClass,
                        security: security,
                        proposal: proposal,
                        shape: shape,
                        servicePort: UInt16(clamping: port),
                        fallsBackToServicePort: fallsBackToServicePort,
                        filePort: facts.fileService.map { UInt16(clamping: $0.port) },
                        proposedNDC: proposedNDC
                    )
                )
            }
            let link = try context.require(id, "the request was sent")
            _ = scenario.wait(timeout) { _ in phone.dataPaths.outcomes[link] != .pending }
            let outcome = scenario.read { _ in phone.dataPaths.outcomes[link] } ?? .pending
            scenario.pass(PairingSuite.settleTime)
            context.log("datapath_outcome_seen", ["outcome": .string("\(outcome)")])
            return (link, outcome)
        }

        /// Requires that the data path came up, and returns it.
        func requireLink(
            _ context: TestContext,
            _ scenario: Scenario,
            _ result: DiscoveryResult,
            phone: Phone? = nil,
            mode: PerformanceMode? = nil,
            proposal: NDPSchedule? = nil
        ) throws -> NDPLink {
            let mode = try mode ?? defaultMode(context)
            let (_, outcome) = try request(
                context,
                scenario,
                result,
                phone: phone,
                mode: mode,
                proposal: proposal
            )
            return try context.require(outcome.link, "a paired data path in \(mode.rawValue) mode: got \(outcome)")
        }

        /// Sends a control request and waits for the first answer that `matches`.
        func control(
            _ context: TestContext,
            _ scenario: Scenario,
            _ link: NDPLink,
            phone: Phone? = nil,
            _ message: ControlMessage,
            timeout: Interval = .seconds(5),
            until matches: @escaping (ControlMessage) -> Bool
        ) throws -> ControlMessage {
            let phone = phone ?? scenario.phone
            let session = try context.require(
                scenario.read { _ in phone.dataPaths.sessions[link.id] },
                "the phone has an app session on the data path"
            )
            var before = 0
            scenario.session.perform {
                before = session.controlMessages.count
                session.send(message)
            }
            let answer: (Phone) -> ControlMessage? = { _ in
                session.controlMessages.dropFirst(before).first(where: matches)
            }
            _ = scenario.wait(timeout) { answer($0) != nil }
            return try context.require(
                scenario.read(answer),
                "the accessory answered \(message) within \(timeout.seconds) s"
            )
        }

        /// A measured stream: what the accessory sent, and the phone's report on it.
        struct Stream {
            var flowID: UInt16
            var offered: Int
            var report: PerformanceReport
            var arrivals: [Instant]
            var latencies: [Interval]
        }

        /// Asks the accessory for a datagram stream and measures it on the phone.
        func measure(
            _ context: TestContext,
            _ scenario: Scenario,
            _ link: NDPLink,
            phone: Phone? = nil,
            rateHz: Double,
            payloadOctets: Int,
            seconds: Double,
            tid: UInt8? = nil
        ) throws -> Stream {
            let phone = phone ?? scenario.phone
            let request = ControlMessage.StreamRequest(
                rateMillihertz: UInt32(rateHz * 1_000),
                payloadOctets: UInt16(clamping: payloadOctets),
                durationMilliseconds: UInt32(seconds * 1_000),
                tid: tid
            )
            let started = try control(context, scenario, link, phone: phone, .startStream(request)) {
                if case .streamStarted = $0 { true } else if case .refused = $0 { true } else { false }
            }
            guard case .streamStarted(let flowID) = started else {
                context.fail("the accessory refused the stream: \(started)")
                throw TestInterruption.requirementFailed
            }
            let session = try context.require(
                scenario.read { _ in phone.dataPaths.sessions[link.id] },
                "an app session"
            )
            let start = scenario.read { _ in session.arrivals[flowID]?.first } ?? Instant(nanoseconds: 0)
            // Only this stream's end: an earlier stream on the same session stopped before it.
            let earlier = scenario.read { _ in
                session.controlMessages.lastIndex { if case .streamStarted = $0 { true } else { false } } ?? 0
            }
            let stopped: (Phone) -> UInt32? = { _ in
                for message in session.controlMessages.dropFirst(earlier) {
                    if case .streamStopped(let sent) = message { return sent }
                }
                return nil
            }
            _ = scenario.wait(.seconds(Int64(seconds) + 10)) { stopped($0) != nil }
            let offered = try context.require(scenario.read(stopped), "the accessory reported the end of its stream")
            scenario.pass(.milliseconds(400))
            let stream = scenario.read { _ in
                let arrivals = session.arrivals[flowID] ?? []
                let first = arrivals.first ?? start
                let end = (arrivals.last ?? first) + .milliseconds(1)
                let report = session.report(
                    flowID: flowID,
                    offered: Int(offered),
                    from: first,
                    to: end,
                    statistics: phone.dataPaths.statistics(link.id)
                )
                return Stream(
                    flowID: flowID,
                    offered: Int(offered),
                    report: report,
                    arrivals: arrivals,
                    latencies: session.latencies[flowID] ?? []
                )
            }
            recordLatency(context, scenario, link, phone: phone, stream: stream, tid: tid)
            return stream
        }

        /// Keeps the stream's one-way latencies (under the access category its datagrams carried) and
        /// the phone's transmit latency per access category for the reports' histograms.
        func recordLatency(
            _ context: TestContext,
            _ scenario: Scenario,
            _ link: NDPLink,
            phone: Phone,
            stream: Stream,
            tid: UInt8?
        ) {
            let (tids, transmit) = scenario.read { _ in
                (
                    phone.dataPaths.sessions[link.id]?.receivedTIDs ?? [:],
                    phone.dataPaths.statistics(link.id)?.transmitLatencies ?? [:]
                )
            }
            let carried = tid ?? tids.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? 0
            let category = AccessCategory(userPriority: carried)
            if let histogram = LatencyHistogram(accessCategory: category, measure: .oneWay, samples: stream.latencies) {
                context.record(latency: histogram)
            }
            for category in AccessCategory.allCases {
                if let histogram = LatencyHistogram(
                    accessCategory: category,
                    measure: .transmit,
                    samples: transmit[category] ?? []
                ) {
                    context.record(latency: histogram)
                }
            }
        }
    }
}
