import ArgumentParser
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

struct CrowdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crowd",
        abstract: "A crowd of publishers and one passive subscriber: discovery latency percentiles, frames per second.",
        discussion: """
            --publishers NANDevices publish the same service (\(serviceName), unsolicited) from \
            random positions within \(Int(radius)) m of one subscriber at the origin that \
            subscribes passively; by default all of them start at t=0, so the crowd powers on together. \
            Each publisher is told apart by its NMI (A2). For each publisher the latency is the \
            simulated time from t=0 to the subscriber's first matched discovery result from it.

            --synchronized (default): every device scans, then joins or forms a cluster (the \
            subscriber with master preference 128, as the runner's phone) and sends its \
            publish once per discovery window, at a random instant in its first 12 of 16 TU. \
            --usd: unsynchronized discovery on channel 6, each publish first sent after a random \
            phase in [0, 100 ms), then every 100 ms ± 10 %, so a crowd that starts together \
            spreads out.

            --start-spread-ms T starts each publisher at a random instant in [0, T) instead, \
            on top of the engine's own spreading.

            Two runs, same mode, seed, --start-spread-ms and --simulated-seconds, timed from the first event to \
            the last (set-up excluded):
            - baseline "pair": one publisher and the subscriber: the latency of discovery \
            with nobody in the way, and the simulator's speed with two stations (the run \
            with the median wall time of \(pairRepetitions) identical runs: one takes milliseconds)
            - crowd: the crowd

            How to read it: latency percentiles are over ALL publishers; a percentile whose \
            rank was not discovered within the run is printed as "not reached" (null in JSON), \
            never computed over the found ones only. "p50 = 6.2 x pair" compares with the \
            pair's one latency. Frames simulated per wall second are transmissions (every \
            frame put on the air, retransmissions included) per second of wall time; \
            receptions per wall second count frames delivered to each receiver (the crowd's \
            real work: each frame reaches hundreds). Collisions are the air's count of \
            transmissions that overlapped another on their channel.

            Exits 1 only if the pair fails to discover its one publisher (a broken simulator \
            or engine, not a crowded air).
            """
    )

    static let serviceName = "_crowd._udp"
    static let radius = 20.0
    static let pairRepetitions = 21

    enum Mode: String, EnumerableFlag {
        case synchronized
        case usd
    }

    @Option(help: "Publishers in the crowd.")
    var publishers = 500

    @Option(help: "Seeds the air, the positions and every device.")
    var seed: UInt64 = 1

    @Option(help: "Simulated seconds to run each case.")
    var simulatedSeconds = 30.0

    @Flag(help: "Synchronized discovery in discovery windows, or unsynchronized service discovery.")
    var mode: Mode = .synchronized

    @Option(
        help: """
            Start each publisher at a random instant in [0, this many ms) instead of all at t=0 \
            (latency is still measured from t=0).
            """
    )
    var startSpreadMs = 0.0

    func validate() throws {
        guard publishers >= 1, publishers <= 10_000 else { throw ValidationError("--publishers must be in 1...10000") }
        guard simulatedSeconds > 0, simulatedSeconds <= 3_600 else {
            throw ValidationError("--simulated-seconds must be in (0, 3600]")
        }
        guard startSpreadMs >= 0, startSpreadMs < simulatedSeconds * 1000 else {
            throw ValidationError("--start-spread-ms must be in [0, --simulated-seconds)")
        }
    }

    struct Outcome {
        var run: SimulationRun
        var publishers: Int
        /// Seconds from t=0 to the first matched result, for each publisher found.
        var latencies: [Double]
        var results: Int

        /// The latency at `fraction` over all publishers; nil when that rank was not found.
        func percentile(_ fraction: Double) -> Double? {
            let rank = max(1, Int((fraction * Double(publishers)).rounded(.up)))
            return rank <= latencies.count ? latencies[rank - 1] : nil
        }
    }

    static let fractions: [(name: String, value: Double)] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1)]

    func run() throws {
        print(
            "crowd: \(publishers) publishers of \(Self.serviceName) within \(Int(Self.radius)) m, 1 passive subscriber, "
                + "\(mode.rawValue), \(BenchSupport.fixed(simulatedSeconds, 0)) simulated s, seed \(seed), "
                + (startSpreadMs > 0
                    ? "publishers start at random in [0, \(BenchSupport.fixed(startSpreadMs, 1)) ms)"
                    : "all start at t=0")
        )
        BenchSupport.flush()
        // The pair takes milliseconds of wall time: the median of many identical runs keeps
        // a cold first run or one busy moment out of the baseline.
        var pairs: [Outcome] = []
        for _ in 0..<Self.pairRepetitions { pairs.append(try measure(publishers: 1, label: "pair")) }
        pairs.sort { $0.run.wallSeconds < $1.run.wallSeconds }
        let pair = pairs[pairs.count / 2]
        report(pair, label: "pair", baseline: nil)
        guard pair.latencies.count == 1 else {
            throw BenchSupport.failure(1, "crowd: the subscriber did not discover the pair's one publisher")
        }
        let crowd = try measure(publishers: publishers, label: "crowd")
        report(crowd, label: "crowd", baseline: pair)

        let pairLatency = pair.latencies[0]
        var members: [(String, JSONValue)] = [
            ("mode", .string(mode.rawValue)), ("publishers", .unsigned(UInt64(publishers))),
            ("seed", .unsigned(seed)), ("simulatedSeconds", BenchSupport.json(simulatedSeconds, 1)),
            ("startSpreadMs", BenchSupport.json(startSpreadMs, 3)), ("baseline", .string("pair")),
            ("baselineLatencySeconds", BenchSupport.json(pairLatency, 6)),
            ("baselineTransmissionsPerWallSecond", BenchSupport.json(pair.run.transmissionsPerWallSecond, 0)),
            ("baselineReceptionsPerWallSecond", BenchSupport.json(Self.receptionsPerWallSecond(pair.run), 0)),
            ("found", .unsigned(UInt64(crowd.latencies.count))),
            ("discoveryResults", .unsigned(UInt64(crowd.results))),
        ]
        for fraction in Self.fractions {
            let value = crowd.percentile(fraction.value)
            members.append((fraction.name + "LatencySeconds", value.map { BenchSupport.json($0, 6) } ?? .null))
            members.append(
                (fraction.name + "InBaselines", value.map { BenchSupport.json($0 / pairLatency, 2) } ?? .null)
            )
        }
        members += [
            ("transmissionsPerWallSecond", BenchSupport.json(crowd.run.transmissionsPerWallSecond, 0)),
            (
                "transmissionsPerWallSecondInBaselines",
                BenchSupport.json(
                    crowd.run.transmissionsPerWallSecond / max(pair.run.transmissionsPerWallSecond, 1e-9),
                    3
                )
            ),
            ("receptionsPerWallSecond", BenchSupport.json(Self.receptionsPerWallSecond(crowd.run), 0)),
            ("simulatedPerWallSecond", BenchSupport.json(crowd.run.simulatedPerWallSecond, 3)),
            ("wallSeconds", BenchSupport.json(crowd.run.wallSeconds)),
            ("events", .unsigned(crowd.run.eventsExecuted)),
        ]
        members += crowd.run.statisticsMembers("crowd")
        BenchSupport.printJSONLine(benchmark: "crowd", members)
    }

    static func receptionsPerWallSecond(_ run: SimulationRun) -> Double {
        run.wallSeconds > 0 ? Double(run.statistics.receptions) / run.wallSeconds : 0
    }

    private func measure(publishers count: Int, label: String) throws -> Outcome {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        var positions = SeededGenerator(seed: seed ^ 0x43_524F_5744)
        let synchronized = mode == .synchronized
        let subscriberAddress = BenchSupport.address(tag: 0xB0, index: 0)
        let subscriber = NANDevice(
            configuration: NANDevice.Configuration(
                name: "subscriber",
                address: subscriberAddress,
                synchronization: synchronized
                    ? SynchronizationConfiguration(address: subscriberAddress, masterPreference: 128) : nil
            ),
            air: air,
            seed: seed
        )
        let counter = ResultCounter()
        subscriber.delegate = counter
        var devices: [(device: NANDevice, start: Instant)] = []
        for index in 0..<count {
            let address = BenchSupport.address(tag: 0xC0, index: index + 1)
            // Uniform over the disc: the radius goes as the square root of a uniform draw.
            let distance = Self.radius * Double.random(in: 0...1, using: &positions).squareRoot()
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &positions)
            let start = startSpreadMs > 0 ? Double.random(in: 0..<startSpreadMs, using: &positions) / 1000 : 0
            let device = NANDevice(
                configuration: NANDevice.Configuration(
                    name: "publisher-\(index + 1)",
                    address: address,
                    position: StationConfiguration.Position(x: distance * cos(angle), y: distance * sin(angle)),
                    synchronization: synchronized ? SynchronizationConfiguration(address: address) : nil
                ),
                air: air,
                seed: seed &+ UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
            )
            devices.append((device, .zero + .seconds(start)))
        }
        do {
            try subscriber.start()
            subscriber.perform(.subscribe(SubscribeConfiguration(serviceName: Self.serviceName, mode: .passive)))
        } catch {
            throw BenchSupport.failure(1, "crowd: cannot join the simulated air: \(error)")
        }
        var attachFailure: (any Error)?
        for (device, start) in devices {
            air.scheduler.schedule(at: start) {
                do {
                    try device.start()
                } catch {
                    attachFailure = error
                    return
                }
                device.perform(
                    .publish(PublishConfiguration(serviceName: Self.serviceName, solicitation: .unsolicited))
                )
            }
        }
        let run = SimulationRun.measure(label, air: air, until: .zero + .seconds(simulatedSeconds))
        for (device, _) in devices { device.stop() }
        subscriber.stop()
        if let attachFailure {
            throw BenchSupport.failure(1, "crowd: a publisher cannot join the simulated air: \(attachFailure)")
        }
        return Outcome(
            run: run,
            publishers: count,
            latencies: counter.firstResult.values.map(\.seconds).sorted(),
            results: counter.results
        )
    }

    private func report(_ outcome: Outcome, label: String, baseline: Outcome?) {
        let run = outcome.run
        let pairLatency = baseline?.latencies.first
        print(
            "  \(label): \(outcome.latencies.count) of \(outcome.publishers) publishers found, "
                + "\(BenchSupport.grouped(Double(outcome.results))) matched results; "
                + "\(BenchSupport.fixed(run.wallSeconds, 3)) s wall, "
                + "\(BenchSupport.fixed(run.simulatedPerWallSecond, 2)) simulated s per wall s, "
                + "\(BenchSupport.grouped(Double(run.eventsExecuted))) events"
        )
        var latency = "    latency:"
        for fraction in Self.fractions {
            latency += " \(fraction.name) "
            if let value = outcome.percentile(fraction.value) {
                latency += "\(BenchSupport.fixed(value * 1000, 1)) ms"
                if let pairLatency, pairLatency > 0 {
                    latency += " (\(BenchSupport.fixed(value / pairLatency, 2)) x pair)"
                }
            } else {
                latency += "not reached"
            }
            latency += ";"
        }
        print(baseline == nil ? latency + "  [baseline]" : latency)
        var frames =
            "    frames: \(BenchSupport.grouped(run.transmissionsPerWallSecond)) transmissions per wall s"
        if let baseline, baseline.run.transmissionsPerWallSecond > 0 {
            frames +=
                " (\(BenchSupport.fixed(run.transmissionsPerWallSecond / baseline.run.transmissionsPerWallSecond, 3)) x pair)"
        }
        frames += ", \(BenchSupport.grouped(Self.receptionsPerWallSecond(run))) receptions per wall s"
        print(frames)
        print("    air: \(run.statisticsLine)")
        BenchSupport.flush()
    }
}

/// The subscriber's delegate: counts its matched results and when it first heard each publisher.
private final class ResultCounter: NANDeviceDelegate {
    var results = 0
    var firstResult: [MACAddress: Instant] = [:]

    func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
        guard case .discovery(.discoveryResult(let result)) = notification, result.matched else { return }
        results += 1
        if firstResult[result.publisherAddress] == nil { firstResult[result.publisherAddress] = device.now }
    }
}
