import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// Drives one `perf` measurement on an open ``PhoneSession``: find, pair or reconnect, open the
/// data path, ask for the stream, wait for it to end, collect both reports.
public struct PerfRunner {
    public let phoneSession: PhoneSession
    public let plan: PerfPlan
    public let timeout: Double

    public init(phoneSession: PhoneSession, plan: PerfPlan, timeout: Double) {
        self.phoneSession = phoneSession
        self.plan = plan
        self.timeout = timeout
    }

    /// How long after `streamStopped` datagrams may still arrive: the accessory drops an
    /// unreliable datagram 200 ms after it was queued (AccessoryAppSession.datagramDeadline).
    static let drain = Interval.milliseconds(300)
    /// How long the accessory gets to answer a control request.
    static let controlTimeout = Interval.seconds(10)

    var session: any TargetSession { phoneSession.session }
    var phone: Phone { phoneSession.phone }

    public func measure() -> PerfResult {
        guard let found = phoneSession.find(service: plan.service, timeout: timeout) else {
            return .failed("no-accessory", "no accessory publishes \(plan.service)")
        }
        var result = PerfResult(result: .failed, accessory: found.publisherAddress)
        let pairing = pairOrReconnect(found)
        result.pairing = pairing.succeeded ? pairing.result.rawValue : nil
        guard pairing.succeeded else {
            result.reason = "pairing-failed"
            result.detail = "\(pairing.reason ?? "failed"): \(pairing.detail)"
            return result
        }
        let request = PhoneDataPathRequest(
            accessory: found.publisherAddress,
            publishID: found.publishInstanceID,
            serviceName: found.serviceName,
            mode: plan.mode,
            serviceClass: plan.serviceClass,
            servicePort: plan.servicePort
        )
        var id: DataLinkID?
        session.perform { id = phone.dataPaths.open(request) }
        guard let id else { return result }
        var outcome = DataPathOutcome.pending
        _ = session.run(
            until: {
                outcome = phone.dataPaths.outcomes[id] ?? .pending
                return outcome != .pending
            },
            timeout: .seconds(timeout)
        )
        guard let link = outcome.link else {
            return Self.unestablished(outcome, result: result)
        }
        result.csid = link.security?.rawValue
        switch plan.traffic {
        case .stream: stream(on: link.id, into: &result)
        case .echo: echo(on: link.id, into: &result)
        }
        session.perform { phone.dataPaths.terminate(link.id) }
        // Let the accessory hear the termination before the session closes.
        _ = session.run(until: { false }, timeout: .milliseconds(200))
        return result
    }

    /// Reconnects when the phone's store resolves the accessory, and pairs (again) otherwise, or
    /// when the accessory no longer knows the phone.
    private func pairOrReconnect(_ found: DiscoveryResult) -> PairingOutcome {
        var known = false
        session.perform { known = phone.pairing.resolve(found) != nil }
        guard known else { return phoneSession.pair(with: found, pin: plan.pin, timeout: timeout) }
        let reconnected = phoneSession.reconnect(with: found, timeout: timeout)
        if reconnected.succeeded { return reconnected }
        var paired = phoneSession.pair(with: found, pin: plan.pin, timeout: timeout)
        if !paired.succeeded {
            paired.detail = "reconnect: \(reconnected.reason ?? "failed"), then pairing: \(paired.detail)"
        }
        return paired
    }

    private static func unestablished(_ outcome: DataPathOutcome, result: PerfResult) -> PerfResult {
        var result = result
        switch outcome {
        case .pending:
            result.reason = "timeout"
            result.detail = "the data path was not set up in time"
        case .failed(let failure):
            result.nanReason = failure.reason?.rawValue
            result.detail = failure.description
            if case .rejectedByPeer = failure.kind { result.result = .refused }
            result.reason = reasonName(failure)
        case .terminated(let reason, _):
            result.nanReason = reason.rawValue
            result.reason = "terminated"
            result.detail = "the data path ended during setup (\(reason.name))"
        case .established:
            break
        }
        return result
    }

    /// The machine-readable reason of a data path that did not come up.
    public static func reasonName(_ failure: NDPFailure) -> String {
        if case .modeMismatch = failure.kind { return "mode-mismatch" }
        switch failure.reason {
        case NANReasonCode.qosUnacceptable: return "mode-mismatch"
        case NANReasonCode.securityPolicy: return "security-policy"
        default: break
        }
        switch failure.kind {
        case .timeout: return "timeout"
        case .micMismatch: return "mic-mismatch"
        case .pmkidMismatch: return "pmkid-mismatch"
        case .scheduleUnacceptable: return "schedule-unacceptable"
        case .noCluster: return "no-cluster"
        default:
            guard let reason = failure.reason, reason.name != "Reserved" else { return "datapath-failed" }
            return reason.name.lowercased().replacingOccurrences(of: "_", with: "-")
        }
    }

    /// Asks for the stream, waits for `streamStopped` and the drain, builds the phone's report
    /// on the stream's flow and fetches the accessory's.
    private func stream(on id: DataLinkID, into result: inout PerfResult) {
        var dataSession: PhoneDataSession?
        var start = Instant.zero
        var seen = 0
        session.perform {
            dataSession = phone.dataPaths.sessions[id]
            seen = dataSession?.controlMessages.count ?? 0
            dataSession?.send(.startStream(plan.streamRequest))
            start = sharedNow
        }
        guard let dataSession else {
            result.reason = "datapath-failed"
            result.detail = "the data path has no session"
            return
        }
        guard case .streamStarted(let flowID)? = awaitControl(dataSession, after: &seen, timeout: Self.controlTimeout)
        else {
            result.reason = dataSession.controlFailure == nil ? "stream-refused" : "control-failed"
            result.detail = "the accessory did not start the stream"
            return
        }
        result.flowID = flowID
        let streaming = Interval.seconds(plan.durationSeconds) + Self.controlTimeout
        var stopped: UInt32?
        var stoppedAt = start
        while stopped == nil, let message = awaitControl(dataSession, after: &seen, timeout: streaming) {
            if case .streamStopped(let sent) = message {
                stopped = sent
                session.perform { stoppedAt = sharedNow }
            }
        }
        guard let offered = stopped else {
            result.reason = "timeout"
            result.detail = "the accessory did not say the stream stopped"
            return
        }
        _ = session.run(until: { false }, timeout: Self.drain)
        var report: PerformanceReport?
        session.perform {
            // The flow's span: from the first datagram's departure (its arrival less its one-way
            // latency) to the last one's arrival; without any, from the request to streamStopped.
            let arrivals = dataSession.arrivals[flowID] ?? []
            var from = start
            if let first = arrivals.first, let latency = dataSession.latencies[flowID]?.first {
                from = min(first, max(start, first + Interval(nanoseconds: -latency.nanoseconds)))
            }
            let end = arrivals.last ?? stoppedAt
            result.windowSeconds = (end - from).seconds
            report = dataSession.report(
                flowID: flowID,
                offered: Int(offered),
                from: from,
                to: end,
                statistics: phone.dataPaths.statistics(id)
            )
            dataSession.send(.reportRequest)
        }
        result.phoneReport = report
        result.result = .measured
        result.reason = nil
        if case .report(let text)? = awaitControl(dataSession, after: &seen, timeout: Self.controlTimeout) {
            result.accessoryReport = try? JSONValue(parsing: text)
        }
        if result.accessoryReport == nil { result.detail = "the accessory sent no readable report" }
    }

    /// Sends rate x duration echo requests at the plan's rate and size in its service class's
    /// access category, waits for the replies (a second after the last request) and reports the
    /// round trips: standard traffic any accessory's stack answers (RFC 4443 4).
    private func echo(on id: DataLinkID, into result: inout PerfResult) {
        let count = max(1, Int((plan.rateHz * plan.durationSeconds).rounded()))
        var run: PhoneEchoRun?
        session.perform {
            run = phone.dataPaths.startEcho(
                on: id,
                pattern: .steady(rateHz: plan.rateHz, count: count),
                size: plan.payloadOctets,
                category: plan.serviceClass.accessCategory
            )
        }
        guard let run else {
            result.reason = "datapath-failed"
            result.detail = "the data path went away before the first echo request"
            return
        }
        _ = session.run(
            until: { run.finishedSending && run.exchanges.allSatisfy { $0.repliedAt != nil } },
            timeout: .seconds(plan.durationSeconds) + .seconds(1) + Self.drain
        )
        _ = session.run(until: { run.exchanges.allSatisfy { $0.repliedAt != nil } }, timeout: .seconds(1))
        var exchanges: [EchoExchange] = []
        session.perform { exchanges = run.exchanges }
        let answered = exchanges.filter { $0.repliedAt != nil }
        result.echoSent = exchanges.count
        result.echoAnswered = answered.count
        result.roundTrip = LatencyStatistics(samples: answered.compactMap(\.roundTrip))
        result.windowSeconds = plan.durationSeconds
        guard !answered.isEmpty else {
            result.reason = "no-echo-reply"
            result.detail = "the accessory answered none of \(exchanges.count) echo requests"
            return
        }
        result.result = .measured
        result.reason = nil
    }

    /// The next control message from the accessory after the first `seen`, or nil on timeout.
    private func awaitControl(
        _ dataSession: PhoneDataSession,
        after seen: inout Int,
        timeout: Interval
    )
        -> ControlMessage?
    {
        var message: ControlMessage?
        let index = seen
        _ = session.run(
            until: {
                if dataSession.controlMessages.count > index { message = dataSession.controlMessages[index] }
                return message != nil || dataSession.controlFailure != nil || dataSession.closed
            },
            timeout: timeout
        )
        if message != nil { seen += 1 }
        return message
    }

    /// The shared clock the phone's arrival times are on; call on the scheduler.
    private var sharedNow: Instant {
        Instant(nanoseconds: phone.device.scheduler.sharedTimestamp(of: phone.device.now))
    }
}

/// What `perf` measures with.
public enum PerfTraffic: String, Sendable, CaseIterable {
    /// A datagram stream asked for with the bench's protocol, and the accessory's own report.
    case stream
    /// ICMPv6 echo requests at the plan's rate: round trips from any accessory's stack.
    case echo
}

/// What one `perf` measurement asks for: the service, the mode on both sides, the stream.
public struct PerfPlan: Sendable {
    public var service: String
    public var mode: PerformanceMode
    public var serviceClass: ServiceClass
    /// The accessory's listener mode, when the runner starts the accessory and sets it.
    public var accessoryMode: PerformanceMode?
    public var rateHz: Double
    public var payloadOctets: Int
    public var durationSeconds: Double
    public var servicePort: UInt16
    /// The profile's realtime `maxLatencyMs`, shown next to p99.
    public var latencyBudgetMs: Double?
    public var traffic: PerfTraffic
    /// The PIN to type when perf has to pair (a label's); nil reads the accessory's display.
    public var pin: String?

    public init(
        service: String,
        mode: PerformanceMode,
        serviceClass: ServiceClass,
        accessoryMode: PerformanceMode?,
        rateHz: Double,
        payloadOctets: Int,
        durationSeconds: Double,
        servicePort: UInt16,
        latencyBudgetMs: Double?,
        traffic: PerfTraffic = .stream
    ) {
        self.traffic = traffic
        self.service = service
        self.mode = mode
        self.serviceClass = serviceClass
        self.accessoryMode = accessoryMode
        self.rateHz = rateHz
        self.payloadOctets = payloadOctets
        self.durationSeconds = durationSeconds
        self.servicePort = servicePort
        self.latencyBudgetMs = latencyBudgetMs
    }

    public var streamRequest: ControlMessage.StreamRequest {
        ControlMessage.StreamRequest(
            rateMillihertz: UInt32((rateHz * 1_000).rounded()),
            payloadOctets: UInt16(clamping: payloadOctets),
            durationMilliseconds: UInt32((durationSeconds * 1_000).rounded()),
            tid: serviceClass.accessCategory.tid
        )
    }
}

/// What became of a `perf` run: the phone's report on the measured flow and the accessory's own,
/// or why there is none.
public struct PerfResult: Sendable {
    public enum Result: String, Sendable {
        case measured
        /// The accessory refused the data path (a NAN reason code says why).
        case refused
        case failed
    }

    public var result: Result
    /// Machine-readable: mode-mismatch, security-policy, no-accessory, pairing-failed, ...
    public var reason: String?
    public var detail = ""
    public var accessory: MACAddress?
    /// "paired" or "reconnected": how the phone got its keys for the data path.
    public var pairing: String?
    /// The NAN reason code of a refusal (nan-wire-reference.md 2.11).
    public var nanReason: UInt8?
    /// The cipher suite that secured the data path.
    public var csid: UInt8?
    public var flowID: UInt16?
    /// From the first datagram's departure to the last one's arrival (without any, from the
    /// stream request to `streamStopped`): what the phone's throughput is computed over.
    public var windowSeconds: Double?
    public var phoneReport: PerformanceReport?
    public var accessoryReport: JSONValue?
    /// With echo: requests sent, replies, and the round trips.
    public var echoSent: Int?
    public var echoAnswered: Int?
    public var roundTrip: LatencyStatistics?

    init(
        result: Result,
        reason: String? = nil,
        detail: String = "",
        accessory: MACAddress? = nil
    ) {
        self.result = result
        self.reason = reason
        self.detail = detail
        self.accessory = accessory
    }

    static func failed(_ reason: String, _ detail: String) -> PerfResult {
        PerfResult(result: .failed, reason: reason, detail: detail)
    }
}
