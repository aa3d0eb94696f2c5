import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

extension DataPathSuite.Builder {
    /// `WA/PERF`: what a data path delivers in each performance mode, and the file service.
    func performance() throws -> [ConformanceTest] {
        try [
            test(
                "WA/PERF/BV-01",
                "Realtime: echo round trips stay within twice the profile's latency budget (once each way)",
                mode: .realtime,
                brokenBy: ["perf-realtime-as-bulk", "perf-dw-bursts"],
                steps: [.echoTraffic],
                onlyIf: [.realtimeBudget]
            ) { context, suite in
                let budget = try context.require(
                    try suite.facts(context).realtimeMaxLatencyMs,
                    "the profile states a realtime latency budget (performance.realtime.maxLatencyMs)"
                )
                // A round trip crosses the data path twice, each crossing within the budget.
                let (scenario, echoes) = try suite.realtimeEchoes(context, size: 256)
                defer { scenario.finish() }
                let answered = echoes.filter { $0.repliedAt != nil }
                let latency = try context.require(
                    LatencyStatistics(samples: answered.compactMap(\.roundTrip)),
                    "echo replies on the realtime data path: 0 of \(echoes.count) answered"
                )
                context.log(
                    "round_trip_measured",
                    [
                        "p50Ms": .double(latency.p50.milliseconds), "p95Ms": .double(latency.p95.milliseconds),
                        "p99Ms": .double(latency.p99.milliseconds), "budgetMs": .double(budget),
                    ]
                )
                context.expect(
                    latency.p99.milliseconds <= 2 * budget,
                    "p99 echo round trip \(format(latency.p99.milliseconds)) ms within twice the profile's realtime "
                        + "budget of \(format(budget)) ms (p50 \(format(latency.p50.milliseconds)) ms, max "
                        + "\(format(latency.maximum.milliseconds)) ms, \(latency.count) replies)"
                )
                context.expect(
                    answered.count * 10 >= echoes.count * 9,
                    "at least 90 % of the echo requests were answered: \(answered.count) of \(echoes.count)"
                )
            },
            test(
                "WA/PERF/BV-02",
                "Bulk: the data path carries at least the profile's throughput floor (echo, both ways)",
                mode: .bulk,
                brokenBy: ["perf-throttle"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context, mode: .bulk)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result, mode: .bulk)
                try suite.reach(context, scenario, link)
                // 1 232-octet echo data (an IPv6 minimum-MTU packet, RFC 8200 5) with 32 requests
                // outstanding for 3 s (`ping -f -l 32`): more than a bulk schedule carries, each
                // request and each reply crossing the data path once.
                let size = 1_232
                let category = try suite.serviceClass(context, .bulk).accessCategory
                let flood = try suite.echoFlood(
                    context,
                    scenario,
                    link,
                    window: 32,
                    seconds: 3,
                    size: size,
                    category: category
                )
                suite.recordRoundTrips(context, scenario, link, flood.exchanges, category: category)
                let answered = flood.exchanges.filter { $0.repliedAt != nil }.count
                let seconds = max(flood.duration.seconds, 0.001)
                let carried = Double(2 * answered * size) * 8 / seconds / 1e6
                let signal = scenario.read { phone in phone.dataPaths.statistics(link.id)?.lastSignalDBm }
                let capacity =
                    PerformanceReport(
                        PerformanceMeasurement(
                            rssiDBm: signal,
                            phyRateMbps: signal.map { LinkRate.select(signalDBm: Double($0)).megabitsPerSecond },
                            dutyCycle: link.schedule.dutyCycle,
                            duration: flood.duration
                        )
                    ).throughputCapacityMbps ?? 0
                let floor = try suite.facts(context).bulkMinThroughputMbps ?? capacity / 2
                context.log(
                    "throughput_measured",
                    [
                        "mbps": .double(carried), "floorMbps": .double(floor), "capacityMbps": .double(capacity),
                        "echoes": .integer(Int64(flood.exchanges.count)), "answered": .integer(Int64(answered)),
                    ]
                )
                context.expect(
                    floor > 0 && carried >= floor,
                    "bulk goodput \(format(carried)) Mb/s (echo data both ways: \(answered) replies of \(size) octets in "
                        + "\(format(seconds)) s) at least the floor of \(format(floor)) Mb/s (modelled capacity "
                        + "\(format(capacity)) Mb/s, duty cycle \(format(link.schedule.dutyCycle)))"
                )
            },
            test(
                "WA/PERF/BI-01",
                "Realtime: echo replies to a steady 50 packet/s stream do not arrive in bursts at the "
                    + "discovery-window period",
                tags: ["esp-idf-19066"],
                mode: .realtime,
                brokenBy: ["perf-dw-bursts", "perf-realtime-as-bulk"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, echoes) = try suite.realtimeEchoes(context, size: 128)
                defer { scenario.finish() }
                let arrivals = echoes.compactMap(\.repliedAt).sorted()
                try context.require(arrivals.count >= 20, "enough echo replies arrived: \(arrivals.count)")
                let analysis = BurstDetector(packetsPerSecond: 50).analyze(arrivals)
                context.log(
                    "burst_analysis",
                    [
                        "bursts": .integer(Int64(analysis.burstCount)),
                        "meanBurstSize": .double(analysis.meanBurstSize),
                        "meanBurstPeriodMs": .double(analysis.meanBurstPeriod?.milliseconds ?? 0),
                    ]
                )
                context.expect(
                    !analysis.isDiscoveryWindowBursting,
                    "the replies arrive steadily, not in \(analysis.burstCount) bursts of \(format(analysis.meanBurstSize)) "
                        + "every \(format(analysis.meanBurstPeriod?.milliseconds ?? 0)) ms (the 512 TU discovery-window "
                        + "period, esp-idf #19066)"
                )
            },
            test(
                "WA/PERF/BI-02",
                "A data path request in another performance mode than the accessory's is refused",
                brokenBy: ["perf-ignore-mode-mismatch"],
                steps: [.pairedExchange]
            ) { context, suite in
                // The profile as it is: the accessory listens in its default mode, and the phone asks
                // for the other one (with that mode's service class, as an app asking for it would).
                let mode = try suite.defaultMode(context)
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let other: PerformanceMode = mode == .bulk ? .realtime : .bulk
                let (_, outcome) = try suite.request(context, scenario, result, mode: other)
                guard case .failed(let failure) = outcome else {
                    context.fail(
                        "a \(other.rawValue) request to an accessory listening in \(mode.rawValue) mode must be refused "
                            + "with reason 9 (QoS_UNACCEPTABLE); got \(outcome)"
                    )
                    return
                }
                context.expectEqual(failure.kind, .rejectedByPeer(.qosUnacceptable), "the answer to a mode mismatch")
            },
            test(
                "WA/PERF/BV-03",
                "The accessory's performance report agrees with the traffic the phone received",
                // The report is the accessory's own, asked for with the bench's protocol: an iPhone
                // computes its report itself (apple-peer-model.md 1.8).
                requires: [.benchProtocol],
                brokenBy: ["perf-report-inflated"],
                steps: [.echoTraffic],
                onlyIf: [.benchProtocol]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                _ = try suite.measure(context, scenario, link, rateHz: 50, payloadOctets: 256, seconds: 3)
                let answer = try suite.control(context, scenario, link, .reportRequest) {
                    if case .report = $0 { true } else { false }
                }
                guard case .report(let text) = answer,
                    let report = try? JSONValue(parsing: text),
                    let delivered = report["packets"]?["delivered"]?.integerValue.flatMap({ Int(exactly: $0) }),
                    let offered = report["packets"]?["offered"]?.integerValue.flatMap({ Int(exactly: $0) }),
                    let duty = report["dutyCycle"]?.doubleValue
                else {
                    context.fail("the accessory's report is not the documented JSON: \(answer)")
                    return
                }
                let received = scenario.read { phone in phone.dataPaths.statistics(link.id)?.framesReceived } ?? 0
                context.log(
                    "report_compared",
                    ["accessoryDelivered": .integer(Int64(delivered)), "phoneReceived": .integer(Int64(received))]
                )
                // The accessory counts frames the phone acknowledged; the phone counts frames it
                // received. Acknowledged frames were received, so the accessory's count may not
                // exceed the phone's beyond a few in flight; it falls short only by acknowledgements
                // lost on the way back (none on the simulated air, a few on a shared one).
                context.expect(
                    delivered <= received + 5 && delivered * 5 >= received * 4 - 25,
                    "frames the accessory reports delivered (\(delivered)) match the frames the phone received (\(received))"
                )
                context.expect(offered >= delivered, "offered (\(offered)) is at least delivered (\(delivered))")
                let expectedDuty = link.schedule.dutyCycle
                context.expect(
                    abs(duty - expectedDuty) < 0.001,
                    "the reported duty cycle \(format(duty)) is the agreed schedule's \(format(expectedDuty))"
                )
            },
            test(
                "WA/PERF/BV-04",
                "The accessory's data frames carry the TID of its service class",
                // Judged on the accessory's own traffic: its telemetry, or a stream asked for with the
                // bench's protocol. Echo replies are the stack's, not the service's.
                requires: [.ownTraffic],
                brokenBy: ["perf-wrong-tid"],
                steps: [.echoTraffic],
                onlyIf: [.ownTraffic]
            ) { context, suite in
                let facts = try suite.facts(context)
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                let raw = try context.require(
                    facts.serviceClasses[facts.defaultMode],
                    "the default mode's service class"
                )
                let category = try context.require(ServiceClass(rawValue: raw), "a known service class (\(raw))")
                    .accessCategory
                // Judged per connection, not per data path: an app binds each connection to one
                // access category (apple-peer-model.md 1.7), and one data path may carry several
                // at once (a video stream on AC_VI beside control on AC_BE). This test once failed
                // an accessory for any second category on the path: the reference phone's
                // single-connection habit taken for a rule.
                var connections: [String: [UInt8: Int]] = [:]
                if let telemetry = facts.telemetry, telemetry.service == facts.service {
                    let phone = scenario.phone
                    try suite.receiveTelemetry(context, scenario, link, telemetry, phone: phone)
                    let port = UInt16(clamping: telemetry.port)
                    scenario.read { phone in
                        guard let session = phone.dataPaths.sessions[link.id] else { return }
                        for datagram in session.plainDatagrams where datagram.sourcePort == port {
                            connections["port \(port)", default: [:]][datagram.tid, default: 0] += 1
                        }
                        for (flow, tids) in session.flowTIDs { connections["flow \(flow)"] = tids }
                    }
                } else {
                    let stream = try suite.measure(context, scenario, link, rateHz: 20, payloadOctets: 64, seconds: 2)
                    // The stream asked for is the service's own connection: it must carry the category.
                    let tids = scenario.read { $0.dataPaths.sessions[link.id]?.flowTIDs[stream.flowID] } ?? [:]
                    connections["flow \(stream.flowID)"] = tids
                    let wrong = tids.keys.filter { !category.userPriorities.contains($0) }.sorted()
                    context.expect(
                        wrong.isEmpty,
                        "the stream the phone asked for carries TIDs of \(category.rawValue) "
                            + "(\(category.userPriorities)) for service class \(raw); it came with TIDs \(wrong)"
                    )
                }
                context.log(
                    "connection_tids",
                    connections.mapValues { tids in
                        .array(tids.keys.sorted().map { .unsigned(UInt64($0)) })
                    }
                )
                context.expect(!connections.isEmpty, "data frames from the accessory's app arrived")
                let inCategory = connections.values.contains { tids in
                    !tids.isEmpty && tids.keys.allSatisfy { category.userPriorities.contains($0) }
                }
                context.expect(
                    inCategory,
                    "a connection of the service carries the TIDs of its service class \(raw), \(category.rawValue) "
                        + "(\(category.userPriorities)); the connections came with \(connections)"
                )
                for (name, tids) in connections.sorted(by: { $0.key < $1.key }) {
                    let categories = Set(tids.keys.map(AccessCategory.init(userPriority:)))
                    context.expect(
                        categories.count <= 1,
                        "\(name) keeps to one access category; its frames came in \(categories.sorted())"
                    )
                }
            },
            test(
                "WA/PERF/BV-08",
                "Two connections in different access categories share one data path, each in its own",
                tags: ["phone-behaviour"],
                requires: [.benchProtocol],
                // perf-wrong-tid sends everything as background; a throttled bulk stream is a tenth;
                // a realtime accessory that holds its frames for the discovery windows lets most of a
                // stream's datagrams expire.
                brokenBy: ["single-category-per-path", "perf-wrong-tid"],
                steps: [.echoTraffic],
                conditional: [
                    ConditionalFaults(["perf-throttle"], when: .defaultMode(is: .bulk)),
                    ConditionalFaults(["perf-dw-bursts"], when: .defaultMode(is: .realtime)),
                ],
                onlyIf: [.benchProtocol]
            ) { context, suite in
                // An app binds each connection to one access category (apple-peer-model.md 1.7), and
                // one data path carries them all: a video stream beside best-effort control, say.
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                let categories: [AccessCategory] = [.video, .bestEffort]
                let session = try context.require(
                    scenario.read { $0.dataPaths.sessions[link.id] },
                    "the phone has an app session on the data path"
                )
                let stoppedBefore = scenario.read { _ in session.controlMessages.count(where: Self.isStreamStopped) }
                var flows: [(flow: UInt16, category: AccessCategory)] = []
                for category in categories {
                    let request = ControlMessage.StreamRequest(
                        rateMillihertz: 20_000,
                        payloadOctets: 200,
                        durationMilliseconds: 2_000,
                        tid: category.tid
                    )
                    let started = try suite.control(context, scenario, link, .startStream(request)) {
                        if case .streamStarted = $0 { true } else if case .refused = $0 { true } else { false }
                    }
                    guard case .streamStarted(let flow) = started else {
                        context.fail("the accessory refused the \(category.rawValue) stream: \(started)")
                        throw TestInterruption.requirementFailed
                    }
                    flows.append((flow, category))
                }
                _ = scenario.wait(.seconds(12)) { _ in
                    session.controlMessages.count(where: Self.isStreamStopped) >= stoppedBefore + flows.count
                }
                scenario.pass(.milliseconds(400))
                for (flow, category) in flows {
                    let (tids, delivered) = scenario.read { _ in
                        (session.flowTIDs[flow] ?? [:], session.arrivals[flow]?.count ?? 0)
                    }
                    let wrong = tids.keys.filter { !category.userPriorities.contains($0) }.sorted()
                    context.expect(
                        delivered >= 30,
                        "the \(category.rawValue) stream (flow \(flow)) delivered \(delivered) of about 39 datagrams"
                    )
                    context.expect(
                        wrong.isEmpty,
                        "the \(category.rawValue) stream (flow \(flow)) carries TIDs \(category.userPriorities); "
                            + "it came with \(tids.keys.sorted())"
                    )
                }
            },
            test(
                "WA/PERF/BV-05",
                "A file fetched over the data path arrives whole: its SHA-256 matches the server's",
                requires: [.fileService, .benchProtocol],
                brokenBy: ["file-corrupt-chunk"],
                steps: [.echoTraffic],
                onlyIf: [.fileService, .benchProtocol]
            ) { context, suite in
                let (scenario, result, link, file) = try suite.openFileService(context)
                defer { scenario.finish() }
                try suite.reach(context, scenario, link)
                let transfer = try suite.fetch(context, scenario, link, file: file)
                context.expect(transfer.matches, "SHA-256 of the received file matches the server's: \(transfer)")
                context.expectEqual(transfer.receivedBytes, UInt64(file.size), "octets received")
                _ = result
            },
            test(
                "WA/PERF/BV-06",
                "A file transfer interrupted by a dropped data path resumes where it stopped",
                requires: [.fileService, .benchProtocol],
                // The resumed transfer runs on a new data path, after the dropped one was terminated.
                brokenBy: ["file-no-resume", "file-corrupt-chunk", "ndp-stale-after-termination"],
                steps: [.echoTraffic],
                onlyIf: [.fileService, .benchProtocol]
            ) { context, suite in
                let (scenario, result, link, file) = try suite.openFileService(context)
                defer { scenario.finish() }
                try suite.reach(context, scenario, link)
                let session = try context.require(
                    scenario.read { phone in phone.dataPaths.sessions[link.id] },
                    "a session"
                )
                // The data path ends the moment half the file is in, on the scheduler: polled from
                // the test, a wall-clock air could carry the whole file first.
                let half = UInt64(file.size / 2)
                let interruption = Interruption()
                scenario.session.perform {
                    let phone = scenario.phone
                    session.fileProgress = { [weak phone] received in
                        guard !interruption.done, received >= half else { return }
                        interruption.done = true
                        phone?.dataPaths.terminate(link.id)
                    }
                    session.fetch(file.name)
                }
                try context.require(scenario.wait(.seconds(30)) { _ in interruption.done }, "half the file arrived")
                let kept = scenario.read { _ in session.fileClient?.receivedBytes ?? 0 }
                scenario.pass(.milliseconds(300))
                let client = try context.require(scenario.read { _ in session.fileClient }, "the interrupted transfer")
                let again = try suite.requireLink(context, scenario, result)
                let next = try context.require(
                    scenario.read { phone in phone.dataPaths.sessions[again.id] },
                    "a session"
                )
                scenario.session.perform { next.resume(client) }
                let done: (Phone) -> FileTransferResult? = { _ in
                    for event in next.fileEvents { if case .completed(let result) = event { return result } }
                    return nil
                }
                _ = scenario.wait(.seconds(60)) { done($0) != nil }
                let transfer = try context.require(
                    scenario.read(done),
                    "the resumed transfer completed: \(next.fileEvents.suffix(3))"
                )
                context.expect(transfer.matches, "SHA-256 of the resumed file matches the server's: \(transfer)")
                context.expect(
                    transfer.resumes >= 1,
                    "the transfer was resumed, not restarted (\(transfer.resumes) resumes)"
                )
                context.log("file_resumed", ["keptBytes": .unsigned(kept), "size": .integer(Int64(file.size))])
            },
        ]
    }

    /// A realtime data path, reached, then 200 echo requests of `size` octets at 50 Hz in the
    /// realtime service class's access category, their round trips recorded. The caller finishes
    /// the scenario.
    func realtimeEchoes(_ context: TestContext, size: Int) throws -> (Scenario, [EchoExchange]) {
        let (scenario, result) = try openPaired(context, mode: .realtime)
        do {
            let link = try requireLink(context, scenario, result, mode: .realtime)
            try reach(context, scenario, link)
            let category = try serviceClass(context, .realtime).accessCategory
            let echoes = try echo(context, scenario, link, count: 200, rateHz: 50, size: size, category: category)
            recordRoundTrips(context, scenario, link, echoes, category: category)
            return (scenario, echoes)
        } catch {
            scenario.finish()
            throw error
        }
    }

    /// Pairs, finds the file service and opens a data path to it; the smallest file of the profile.
    func openFileService(
        _ context: TestContext
    ) throws -> (Scenario, DiscoveryResult, NDPLink, DataPathFacts.File) {
        let facts = try facts(context)
        let service = try context.require(facts.fileService, "a file service")
        let file = try context.require(service.files.min { $0.size < $1.size }, "a file to fetch")
        let (scenario, _) = try openPaired(context)
        do {
            let result = try discover(context, scenario, service: service.service)
            let link = try requireLink(context, scenario, result)
            return (scenario, result, link, file)
        } catch {
            scenario.finish()
            throw error
        }
    }

    /// Fetches `file` and waits for the outcome.
    func fetch(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        file: DataPathFacts.File
    ) throws -> FileTransferResult {
        let session = try context.require(scenario.read { phone in phone.dataPaths.sessions[link.id] }, "a session")
        scenario.session.perform { session.fetch(file.name) }
        let done: (Phone) -> FileTransferResult? = { _ in
            for event in session.fileEvents { if case .completed(let result) = event { return result } }
            return nil
        }
        _ = scenario.wait(.seconds(60)) { done($0) != nil }
        return try context.require(scenario.read(done), "the transfer completed: \(session.fileEvents.suffix(3))")
    }
}

extension ProfileCondition {
    /// Where the profile gates a test away it is skipped, and no fault can make it fail.
    fileprivate static let realtimeBudget = ProfileCondition("the profile states a realtime latency budget") {
        $0?.dataPath?.realtimeMaxLatencyMs != nil
    }
    fileprivate static let fileService = ProfileCondition("the profile has a file service") {
        $0?.dataPath?.fileService != nil
    }
    fileprivate static let benchProtocol = ProfileCondition(
        "the profile declares the bench's application protocol (app.benchProtocol)"
    ) { $0?.dataPath?.benchProtocol == true }
    /// WA/PERF/BV-04's premise: traffic of the accessory's own to judge.
    fileprivate static let ownTraffic = ProfileCondition(
        "the accessory sends traffic of its own (app.telemetry on the data service, or app.benchProtocol)"
    ) { profile in
        guard let facts = profile?.dataPath else { return false }
        return facts.benchProtocol || facts.telemetry?.service == facts.service
    }
}

extension DataPathSuite.Builder {
    /// The accessory's Stream Stopped (one for each stream that ended).
    fileprivate static func isStreamStopped(_ message: ControlMessage) -> Bool {
        if case .streamStopped = message { true } else { false }
    }
}

/// Two decimals, for the measurements the verdicts quote.
func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// Whether a test's interruption happened; set and read on the scheduler.
private final class Interruption {
    var done = false
}
