import AwareCore
import AwareDevice
import AwareProtocol
import AwareWire

/// Standard traffic on a data path: what any IPv6 stack answers (the kernel's, lwIP), so the
/// data-path verdicts hold for an accessory that speaks nothing of the bench's own protocol.
extension DataPathSuite.Builder {
    /// What the phone learnt of the accessory's stack on a data path.
    struct Reachability {
        var advertisement: ReceivedAdvertisement
        var echoes: [EchoExchange]
    }

    /// The ping default: 56 octets of echo data.
    static let echoDataOctets = 56

    /// Neighbour discovery, then three echo requests (RFC 4861 7.2, RFC 4443 4.1). The accessory
    /// must answer the phone's solicitation for its link-local address with a solicited
    /// advertisement naming its NDI, and echo each request's data unchanged.
    @discardableResult
    func reach(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        phone: Phone? = nil
    ) throws -> Reachability {
        let phone = phone ?? scenario.phone
        let host = scenario.read { _ in phone.dataPaths.host }
        scenario.session.perform { _ = host.resolveNeighbor(on: link.id) }
        // Three solicitations one second apart (RFC 4861 10), each waiting for a slot of the NDL.
        _ = scenario.wait(.seconds(5)) { _ in host.neighborState(of: link.id) == .reachable }
        let (state, advertisements, address) = scenario.read { _ in
            (host.neighborState(of: link.id), host.advertisements[link.id] ?? [], host.peerAddress(of: link.id))
        }
        let target = address.map(\.description) ?? "its address"
        let answer = try context.require(
            advertisements.first { $0.advertisement.solicited && $0.advertisement.target == address },
            "the accessory answers a neighbour solicitation for \(target) with a solicited advertisement "
                + "(RFC 4861 7.2.4): \(advertisements.count) advertisement(s) came, the phone's entry is "
                + "\(state?.rawValue ?? "gone")"
        )
        context.expectEqual(
            answer.advertisement.targetLinkLayerAddress,
            link.peerNDI,
            "the Target Link-Layer Address of the accessory's advertisement (its NDI)"
        )
        let echoes = try echo(context, scenario, link, phone: phone, count: 3, rateHz: 5)
        let answered = echoes.filter { $0.repliedAt != nil }
        try context.require(
            !answered.isEmpty,
            "the accessory answers ICMPv6 echo requests on the data path (RFC 4443 4.2): 0 of \(echoes.count) answered"
        )
        context.expect(
            answered.allSatisfy { $0.replyDataMatched == true },
            "each echo reply carries its request's data unchanged (RFC 4443 4.2)"
        )
        context.log(
            "reachability",
            [
                "advertisementTLLA": .string(answer.advertisement.targetLinkLayerAddress?.description ?? "none"),
                "echoAnswered": .integer(Int64(answered.count)),
                "roundTripsMs": .array(answered.compactMap { $0.roundTrip.map { .double($0.milliseconds) } }),
            ]
        )
        return Reachability(advertisement: answer, echoes: echoes)
    }

    /// `count` echo requests at `rateHz` with `size` octets of data in `category`; waits for the
    /// replies (at most a second after the last request) and returns every exchange.
    func echo(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        phone: Phone? = nil,
        count: Int,
        rateHz: Double,
        size: Int = DataPathSuite.Builder.echoDataOctets,
        category: AccessCategory = .bestEffort
    ) throws -> [EchoExchange] {
        let phone = phone ?? scenario.phone
        var run: PhoneEchoRun?
        scenario.session.perform {
            run = phone.dataPaths.startEcho(
                on: link.id,
                pattern: .steady(rateHz: rateHz, count: count),
                size: size,
                category: category
            )
        }
        let started = try context.require(run, "the data path is up for echo requests")
        let sending = Interval.seconds(Double(count) / rateHz)
        _ = scenario.wait(sending + .seconds(1)) { _ in
            started.finishedSending && started.exchanges.allSatisfy { $0.repliedAt != nil }
        }
        // Replies still on their way when the last request went (a bulk schedule's gap).
        _ = scenario.wait(.seconds(1)) { _ in started.exchanges.allSatisfy { $0.repliedAt != nil } }
        return scenario.read { _ in started.exchanges }
    }

    /// Echo requests with `window` outstanding for `seconds` (`ping -f`): what the data path
    /// carries when the phone keeps it busy.
    func echoFlood(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        window: Int,
        seconds: Double,
        size: Int,
        category: AccessCategory
    ) throws -> (exchanges: [EchoExchange], duration: Interval) {
        var run: PhoneEchoRun?
        scenario.session.perform {
            run = scenario.phone.dataPaths.startEcho(
                on: link.id,
                pattern: .flood(window: window, seconds: seconds),
                size: size,
                category: category
            )
        }
        let started = try context.require(run, "the data path is up for echo requests")
        _ = scenario.wait(.seconds(seconds + 2)) { _ in started.finishedSending }
        scenario.pass(.seconds(1))
        return scenario.read { _ in
            (started.exchanges, (started.finishedSendingAt ?? scenario.phone.device.now) - (started.startedAt ?? .zero))
        }
    }

    /// Records the round trips of `exchanges` (sent in `category`) and the phone's transmit
    /// latency per access category for the report's latency histograms.
    func recordRoundTrips(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        _ exchanges: [EchoExchange],
        category: AccessCategory
    ) {
        let samples = exchanges.compactMap(\.roundTrip)
        if let histogram = LatencyHistogram(accessCategory: category, measure: .roundTrip, samples: samples) {
            context.record(latency: histogram)
        }
        let transmit = scenario.read { phone in phone.dataPaths.statistics(link.id)?.transmitLatencies ?? [:] }
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

    // MARK: - The service

    /// The port the phone's app uses on `link`: the one the accessory's Data Path Response named,
    /// else the profile's (``PhoneDataPaths``).
    func appPort(_ context: TestContext, _ scenario: Scenario, _ link: NDPLink, phone: Phone? = nil) throws -> UInt16 {
        let phone = phone ?? scenario.phone
        if let port = scenario.read({ _ in phone.dataPaths.sessions[link.id]?.servicePort }) { return port }
        return UInt16(clamping: try facts(context).port)
    }

    /// The accessory's service on the data path, with what standard traffic shows of it: a TCP
    /// connection to a `_tcp` service's `port`, the telemetry the profile says a `_udp` service
    /// sends, or, with the bench's protocol, an answer to its ping. Returns what was judged;
    /// nil when the profile gives nothing to judge beyond reachability.
    @discardableResult
    func reachService(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        port: UInt16,
        phone: Phone? = nil
    ) throws -> String? {
        let phone = phone ?? scenario.phone
        let facts = try facts(context)
        if facts.serviceIsTCP {
            try connect(context, scenario, link, port: port, phone: phone)
            return "a TCP connection to port \(port)"
        }
        if let telemetry = facts.telemetry, telemetry.service == facts.service {
            try receiveTelemetry(context, scenario, link, telemetry, phone: phone)
            return "telemetry from port \(telemetry.port)"
        }
        if facts.benchProtocol {
            let pong = try control(context, scenario, link, phone: phone, .ping([0x57, 0x41])) {
                if case .pong = $0 { true } else { false }
            }
            context.expectEqual(pong, .pong([0x57, 0x41]), "the answer to a ping on port \(port)")
            return "the bench's ping on port \(port)"
        }
        return nil
    }

    /// A TCP connection attempt to `port`: a SYN-ACK shows something listens there (the probe
    /// then resets the half-open connection, RFC 9293 3.5).
    func connect(_ context: TestContext, _ scenario: Scenario, _ link: NDPLink, port: UInt16, phone: Phone) throws {
        let host = scenario.read { _ in phone.dataPaths.host }
        var probePort: UInt16?
        scenario.session.perform { probePort = host.probeTCP(on: link.id, port: port) }
        let source = try context.require(probePort, "the data path is up for a TCP connection")
        let result: () -> TCPProbeResult = { host.tcpProbes(on: link.id)[source]?.result ?? .noAnswer }
        // Three SYNs, 1 + 2 + 4 s apart (RFC 6298 2, 5.5).
        _ = scenario.wait(.seconds(8)) { _ in result() != .pending }
        let outcome = scenario.read { _ in result() }
        context.log("tcp_probe", ["port": .unsigned(UInt64(port)), "result": .string("\(outcome)")])
        guard case .open = outcome else {
            context.fail(
                "the accessory accepts a TCP connection to its service's port \(port): "
                    + (outcome == .closed ? "it answered the SYN with RST (nothing listens)" : "no answer to 3 SYNs")
            )
            throw TestInterruption.requirementFailed
        }
    }

    /// The phone sends one datagram to the telemetry port (what an app's connection does first);
    /// the accessory's telemetry must then arrive from that port at about the profile's rate and
    /// size. With the bench's protocol the telemetry comes unasked, as bench messages.
    func receiveTelemetry(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        _ telemetry: DataPathFacts.Telemetry,
        phone: Phone
    ) throws {
        let session = try context.require(
            scenario.read { _ in phone.dataPaths.sessions[link.id] },
            "the phone has an app session on the data path"
        )
        let port = UInt16(clamping: telemetry.port)
        let benchProtocol = try facts(context).benchProtocol
        let plainBefore = scenario.read { _ in session.plainDatagrams.count }
        let benchBefore = scenario.read { _ in session.arrivals.values.map(\.count).reduce(0, +) }
        if !benchProtocol { scenario.session.perform { session.sendPlain(Array("hello".utf8), to: port) } }
        // Two seconds of telemetry, or at least three datagrams of a slow one.
        let seconds = max(2, 3 / telemetry.rateHz)
        scenario.pass(.seconds(seconds))
        let (plain, bench) = scenario.read { _ in
            (
                Array(session.plainDatagrams.dropFirst(plainBefore)).filter { $0.sourcePort == port },
                session.arrivals.values.map(\.count).reduce(0, +) - benchBefore
            )
        }
        let received = benchProtocol ? bench : plain.count
        let expected = Int(telemetry.rateHz * seconds)
        context.log(
            "telemetry_received",
            ["datagrams": .integer(Int64(received)), "expected": .integer(Int64(expected))]
        )
        context.expect(
            received * 2 >= expected,
            "the accessory's telemetry arrives at at least half its profile's \(format(telemetry.rateHz)) Hz: "
                + "\(received) datagrams in \(format(seconds)) s"
                + (benchProtocol ? "" : ", after the phone's first datagram to port \(port)")
        )
        if !benchProtocol {
            let wrong = plain.filter { $0.size != telemetry.payloadBytes }
            context.expect(
                wrong.isEmpty,
                "every telemetry datagram carries the profile's \(telemetry.payloadBytes) octets: \(wrong.count) did not"
            )
        }
    }
}
