import AccessoryKit
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit

/// Part 1 of `datapath`: the one-way latency of a 50 Hz x 256-octet datagram stream the drone
/// sends with one access category's TID, in one performance mode, against the schedule's
/// analytic bound.
struct DataPathLatency {
    static let rateMillihertz: UInt32 = 50_000
    static let payloadOctets: UInt16 = 256

    var mode: PerformanceMode
    var category: AccessCategory
    var offered: Int
    var delivered: Int
    var lost: Int
    /// The phone's one-way latencies of the stream's datagrams (AppMessage timestamp to delivery).
    var latency: LatencyStatistics?
    /// The accessory radio's transmit latency in the category: queued to acknowledged, every
    /// frame of that category on the link (the stream's, and the telemetry's or control's when
    /// they share it).
    var transmit: LatencyStatistics?

    /// The longest a datagram can wait for the schedule: bulk, the longest gap of its schedule
    /// plus one slot to go out in; realtime, one slot.
    static func bound(_ mode: PerformanceMode) -> Interval {
        switch mode {
        case .bulk: .timeUnits(Int64(mode.longestGapTU + PerformanceMode.slotTU))
        case .realtime: .timeUnits(Int64(PerformanceMode.slotTU))
        }
    }

    var bound: Interval { Self.bound(mode) }
    var ratio: Double? { latency.map { $0.p99.seconds / bound.seconds } }

    /// A fresh air, drone and phone: pairing, a data path in `mode` (the accessory switched to
    /// it first), then the stream for `seconds` of virtual time.
    static func measure(
        profile: AccessoryProfile,
        mode: PerformanceMode,
        category: AccessCategory,
        seconds: Double,
        seed: UInt64
    ) throws -> DataPathLatency {
        let bench = try DataPathBench(profile: profile, seed: seed)
        bench.accessory.performanceMode = mode
        let phone = try bench.addPhone()
        let service = profile.services.first { $0.datapath != nil }
        guard let service, let port = service.datapath?.port else {
            throw BenchSupport.failure(3, "datapath: the drone profile has no service with a data path")
        }
        let result = try bench.discover(phone, service: service.name)
        try bench.pair(phone, result)
        let (link, session) = try bench.open(
            phone,
            result,
            mode: mode,
            serviceClass: .carried(in: category),
            servicePort: UInt16(clamping: port)
        )
        let duration = UInt32(seconds * 1000)
        let flowID = try bench.requestStream(
            session,
            ControlMessage.StreamRequest(
                rateMillihertz: rateMillihertz,
                payloadOctets: payloadOctets,
                durationMilliseconds: duration,
                tid: category.tid
            )
        )
        var sent: UInt32?
        _ = bench.run(.seconds(seconds + 5)) {
            for case .streamStopped(let count) in session.controlMessages { sent = count }
            return sent != nil
        }
        // Datagrams still queued when the stream stopped: at most a deadline later.
        bench.run(for: .milliseconds(250))
        let delivered = session.latencies[flowID]?.count ?? 0
        guard delivered > 0, (session.receivedTIDs[category.tid] ?? 0) >= delivered else {
            throw BenchSupport.failure(
                1,
                "datapath: \(mode.rawValue) \(category.rawValue): \(delivered) datagrams delivered, data frames "
                    + "by TID \(session.receivedTIDs.sorted { $0.key < $1.key })"
            )
        }
        let statistics = session.statistics(ofFlow: flowID)
        return DataPathLatency(
            mode: mode,
            category: category,
            offered: Int(sent ?? UInt32(clamping: Int(seconds * 50))),
            delivered: delivered,
            lost: statistics?.lost ?? 0,
            latency: LatencyStatistics(samples: session.latencies[flowID] ?? []),
            transmit: bench.accessoryStatistics(link, phone: phone)?.transmitLatencies[category].flatMap {
                LatencyStatistics(samples: $0)
            }
        )
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("mode", .string(mode.rawValue)), ("accessCategory", .string(category.rawValue)),
            ("tid", .unsigned(UInt64(category.tid))), ("offered", .unsigned(UInt64(max(0, offered)))),
            ("delivered", .unsigned(UInt64(max(0, delivered)))), ("lost", .unsigned(UInt64(max(0, lost)))),
            ("boundMs", BenchSupport.json(bound.milliseconds, 3)),
        ]
        members.append(("latencyMs", latency.map(Self.json) ?? .null))
        members.append(("transmitLatencyMs", transmit.map(Self.json) ?? .null))
        members.append(("p99OverBound", ratio.map { BenchSupport.json($0, 3) } ?? .null))
        return .object(members)
    }

    static func json(_ statistics: LatencyStatistics) -> JSONValue {
        .object([
            ("count", .unsigned(UInt64(max(0, statistics.count)))),
            ("mean", BenchSupport.json(statistics.mean.milliseconds, 3)),
            ("p50", BenchSupport.json(statistics.p50.milliseconds, 3)),
            ("p95", BenchSupport.json(statistics.p95.milliseconds, 3)),
            ("p99", BenchSupport.json(statistics.p99.milliseconds, 3)),
            ("max", BenchSupport.json(statistics.maximum.milliseconds, 3)),
        ])
    }

    /// One table row: mode, AC, delivered/offered, latency columns (ms), transmit mean/p99, ratio.
    var row: String {
        func ms(_ value: Interval?) -> String {
            (value.map { BenchSupport.fixed($0.milliseconds, 2) } ?? "-").leftPadded(8)
        }
        let ratioText = ratio.map { BenchSupport.fixed($0, 3) } ?? "-"
        return "  " + mode.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            + category.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            + "\(delivered)/\(offered)".leftPadded(10)
            + ms(latency?.mean) + ms(latency?.p50) + ms(latency?.p95) + ms(latency?.p99) + ms(latency?.maximum)
            + ms(transmit?.mean) + ms(transmit?.p99)
            + ms(bound) + ratioText.leftPadded(8)
    }

    static let header =
        "  mode     AC    dlvd/offd    mean     p50     p95     p99     max   tx-mean  tx-p99   bound  p99/bnd"
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
