import AccessoryKit
import ArgumentParser
import AwareCore
import AwareWire
import Foundation

struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Hours of virtual time of reconnect cycles: flat memory, no leaked timers, every cycle succeeds.",
        discussion: """
            The profile's accessory and the runner's phone on a simulated air, in virtual time, \
            one thread. The phone pairs once with the displayed PIN; then, every \
            --cycle-seconds, it reconnects without a PIN (resolves the accessory's NIRA with \
            its cached NIK, pairing verification with the cached NPK), opens a paired bulk data \
            path, pings the accessory's service once a second for --traffic-seconds while the \
            drone's telemetry flows back, terminates the path and goes away: even cycles drop \
            the link (the phone forgets its NM-TK, stays on the air), odd cycles leave the air \
            (the phone stops; next cycle a new phone with the same pairing store and a new NMI \
            joins and discovers the accessory). The rest of the cycle is idle air.

            At every checkpoint (every --checkpoint-minutes of virtual time, at the boundary of \
            an even cycle, so the phone is idle and subscribed each time) it prints: cycles done \
            and failed, the process's VmRSS, the work pending on the VirtualScheduler (armed \
            timers and queued events), CPU and wall seconds, and live state: the accessory's \
            pairing records, data paths and NM-TKs (one per paired phone NMI), the phone's pairing records, data path requests \
            and open app sessions, the stations on the air, and phones that left the air but \
            are still alive (a leak).

            Verdicts, baseline = the first checkpoint of the same run (the first block of \
            cycles is the warm-up): memory growth = last RSS / first RSS, at most \
            --max-rss-ratio; pending work flat (sampled over the last discovery-window period \
            before each checkpoint, its lowest and highest never higher in the later half of \
            the checkpoints than in the earlier half: a leaked timer would climb) and live state \
            the same at every checkpoint. \
            Exits 1 if a cycle fails (printed with its cycle number and the command that \
            reruns it: a seed reproduces a run bit for bit), a count is not flat or memory grew \
            too much; 3 if the profile cannot be loaded.
            """
    )

    @Option(help: "Hours of virtual time to run cycles for (rounded up to whole checkpoints).")
    var hours = 24.0

    @Option(help: "Virtual seconds from the start of one cycle to the next.")
    var cycleSeconds = 60.0

    @Option(help: "Virtual seconds of traffic on each cycle's data path.")
    var trafficSeconds = 3.0

    @Option(help: "Virtual minutes between checkpoints (at most a quarter of --hours).")
    var checkpointMinutes = 60.0

    @Option(help: "How the phone goes away after each cycle: alternate, drop-link or leave-air.")
    var departure = SoakBench.Departure.alternate

    @Option(help: "Seeds the air, the accessory and the phones.")
    var seed: UInt64 = 1

    @Option(help: "The accessory's profile (looked up above the binary too).")
    var profile = "Profiles/drone.json"

    @Option(help: "The largest last/first checkpoint RSS ratio that passes.")
    var maxRSSRatio = 1.10

    @Flag(help: "Print only the JSON line.")
    var json = false

    func validate() throws {
        guard hours > 0, hours <= 24 * 30 else { throw ValidationError("--hours must be in (0, 720]") }
        guard cycleSeconds >= 20, cycleSeconds <= 3600 else {
            throw ValidationError("--cycle-seconds must be in [20, 3600]: a cycle needs up to 17 s of virtual time")
        }
        guard trafficSeconds > 0, trafficSeconds <= cycleSeconds / 4 else {
            throw ValidationError("--traffic-seconds must be in (0, cycle-seconds / 4]")
        }
        guard checkpointMinutes > 0 else { throw ValidationError("--checkpoint-minutes must be positive") }
        guard maxRSSRatio >= 1 else { throw ValidationError("--max-rss-ratio must be at least 1") }
    }

    /// The command that reruns this run, for failure messages.
    var rerun: String {
        "aware-bench soak --hours \(hours) --cycle-seconds \(cycleSeconds) --traffic-seconds \(trafficSeconds) "
            + "--checkpoint-minutes \(checkpointMinutes) --departure \(departure.rawValue) --seed \(seed) --profile \(profile)"
    }

    func run() throws {
        let accessoryProfile = try BenchSupport.loadProfile(path: profile)
        let wallClock = ContinuousClock()
        let wallStart = wallClock.now
        let cpuStart = CPUClock.seconds()
        let checkpointSeconds = min(checkpointMinutes * 60, hours * 3600 / 4)
        var perCheckpoint = max(2, Int((checkpointSeconds / cycleSeconds).rounded()))
        perCheckpoint += perCheckpoint % 2
        let wanted = Int((hours * 3600 / cycleSeconds).rounded(.up))
        let checkpoints = (wanted + perCheckpoint - 1) / perCheckpoint
        let cycles = checkpoints * perCheckpoint
        say(
            "soak: \(profile), seed \(seed), \(cycles) cycles of \(BenchSupport.fixed(cycleSeconds, 0)) virtual s "
                + "(\(BenchSupport.fixed(Double(cycles) * cycleSeconds / 3600, 2)) virtual h), "
                + "\(BenchSupport.fixed(trafficSeconds, 1)) s of traffic each, a checkpoint every \(perCheckpoint) cycles"
        )

        let bench = try SoakBench(
            profile: accessoryProfile,
            seed: seed,
            trafficSeconds: trafficSeconds,
            departure: departure
        )
        var failures: [SoakBench.Failure] = []
        do throws(SoakBench.Failure) {
            try bench.pairWithPIN()
        } catch {
            report(error)
            throw ExitCode(1)
        }
        let start = Instant(nanoseconds: (bench.now.nanoseconds / 1_000_000_000 + 1) * 1_000_000_000)
        bench.scheduler.run(until: start)
        let pending = bench.scheduler.pendingCount
        let initial = checkpoint(
            bench,
            timers: pending...pending,
            start: start,
            cycles: 0,
            failed: 0,
            wallStart: wallStart,
            cpuStart: cpuStart
        )
        say("  after the PIN pairing (not a baseline):")
        say(initial.line)
        say("  checkpoints (the first is the baseline):")

        var taken: [SoakCheckpoint] = []
        for number in 1...cycles {
            let cycleStart = start + .seconds(Double(number - 1) * cycleSeconds)
            let cycleEnd = start + .seconds(Double(number) * cycleSeconds)
            do throws(SoakBench.Failure) {
                try bench.cycle(number)
                if bench.now > cycleEnd {
                    throw SoakBench.Failure(
                        cycle: number,
                        step: "timing",
                        detail: "the cycle took \(BenchSupport.fixed((bench.now - cycleStart).seconds, 1)) virtual s"
                    )
                }
            } catch {
                report(error)
                failures.append(error)
                // Start the next cycle from a clean slate: a new phone joins.
                bench.leave()
                guard failures.count < 10 else { break }
            }
            guard number % perCheckpoint == 0 else {
                bench.scheduler.run(until: max(cycleEnd, bench.now))
                continue
            }
            // The timer count is sampled over the last discovery-window period of the cycle.
            bench.scheduler.run(
                until: max(
                    start + .seconds(Double(number) * cycleSeconds - DiscoveryWindowTiming.period.seconds),
                    bench.now
                )
            )
            var timers = bench.scheduler.pendingCount...bench.scheduler.pendingCount
            while let next = bench.scheduler.nextEventTime, next <= cycleEnd {
                bench.scheduler.run(until: next)
                let pending = bench.scheduler.pendingCount
                timers = min(timers.lowerBound, pending)...max(timers.upperBound, pending)
            }
            bench.scheduler.run(until: cycleEnd)
            let point = checkpoint(
                bench,
                timers: timers,
                start: start,
                cycles: number,
                failed: failures.count,
                wallStart: wallStart,
                cpuStart: cpuStart
            )
            taken.append(point)
            say(point.line)
        }
        try verdict(taken, failures: failures, bench: bench, wall: BenchSupport.seconds(wallClock.now - wallStart))
    }

    private func checkpoint(
        _ bench: SoakBench,
        timers: ClosedRange<Int>,
        start: Instant,
        cycles: Int,
        failed: Int,
        wallStart: ContinuousClock.Instant,
        cpuStart: Double
    ) -> SoakCheckpoint {
        let phone = bench.phone
        return SoakCheckpoint(
            virtualHours: (bench.now - start).seconds / 3600,
            cycles: cycles,
            failed: failed,
            residentOctets: ResidentMemory.octets() ?? 0,
            pendingTimers: timers,
            cpuSeconds: CPUClock.seconds() - cpuStart,
            wallSeconds: BenchSupport.seconds(ContinuousClock.now - wallStart),
            state: [
                ("accessoryPairings", bench.accessory.pairedPeers.count),
                ("accessoryDataPaths", bench.accessory.dataPaths.count),
                ("accessoryNMTKs", bench.accessory.device.protection.pairedPeers.count),
                ("phonePairings", phone?.pairing.records.count ?? 0),
                ("phoneSessions", phone?.dataPaths.sessions.count ?? 0),
                ("stations", bench.air.stations.count),
                ("departedPhonesAlive", bench.departedAlive),
            ],
            // The runner's phone keeps what became of every data path request, by NDP ID (1-255,
            // reused): at most 255 per accessory, by design, for tests to judge.
            history: [("phoneDataPathRequests", phone?.dataPaths.outcomes.count ?? 0)]
        )
    }

    private func verdict(
        _ points: [SoakCheckpoint],
        failures: [SoakBench.Failure],
        bench: SoakBench,
        wall: Double
    )
        throws
    {
        guard let first = points.first, let last = points.last else {
            say("soak: no checkpoint was reached")
            throw ExitCode(1)
        }
        let ratio = first.residentOctets > 0 ? Double(last.residentOctets) / Double(first.residentOctets) : 0
        var notFlat: [String] = []
        // The timer count moves with where the accessory's beacon interval falls in the sampled
        // window period, by a timer or two: it is flat if the later half of the checkpoints
        // never exceeds the earlier half (a leaked timer per so many cycles would).
        let earlier = points.prefix(max(1, points.count / 2))
        let later = points.dropFirst(earlier.count).isEmpty ? earlier : points.dropFirst(earlier.count)
        if later.map(\.pendingTimers.upperBound).max()! > earlier.map(\.pendingTimers.upperBound).max()!
            || later.map(\.pendingTimers.lowerBound).max()! > earlier.map(\.pendingTimers.lowerBound).max()!
        {
            notFlat.append("pendingTimers " + points.map(\.timersText).joined(separator: ","))
        }
        // Live state must be the same at every checkpoint.
        for (index, (name, value)) in first.state.enumerated() {
            let values = points.map { $0.state[index].1 }
            if values.contains(where: { $0 != value }) {
                notFlat.append("\(name) \(values.map(String.init).joined(separator: ","))")
            }
        }
        let memoryFlat = ratio <= maxRSSRatio
        say(
            "  memory: last/first checkpoint RSS = \(BenchSupport.fixed(last.residentMegabytes, 1)) / "
                + "\(BenchSupport.fixed(first.residentMegabytes, 1)) MB = \(BenchSupport.fixed(ratio, 3)) "
                + "(baseline: the first checkpoint, after \(first.cycles) cycles) "
                + (memoryFlat ? "<= \(maxRSSRatio): flat" : "> \(maxRSSRatio): GREW")
        )
        say(
            "  timers and state: "
                + (notFlat.isEmpty ? flatSummary(points) : "NOT flat: " + notFlat.joined(separator: "; "))
        )
        say(
            "  cycles \(last.cycles), failed \(failures.count); pings answered \(bench.pingsAnswered), "
                + "telemetry datagrams \(bench.telemetryDatagrams); wall \(BenchSupport.fixed(wall, 1)) s, "
                + "CPU \(BenchSupport.fixed(last.cpuSeconds, 1)) s"
        )
        let passed = failures.isEmpty && notFlat.isEmpty && memoryFlat
        BenchSupport.printJSONLine(
            benchmark: "soak",
            [
                ("profile", .string(profile)), ("seed", .unsigned(seed)), ("hours", BenchSupport.json(hours, 4)),
                ("cycleSeconds", BenchSupport.json(cycleSeconds, 3)),
                ("trafficSeconds", BenchSupport.json(trafficSeconds, 3)),
                ("cycles", .unsigned(UInt64(last.cycles))), ("failed", .unsigned(UInt64(failures.count))),
                ("failures", .array(failures.map { .string("cycle \($0.cycle) \($0.step): \($0.detail)") })),
                ("baseline", .string("first checkpoint")),
                ("rssRatio", BenchSupport.json(ratio, 4)), ("maxRSSRatio", BenchSupport.json(maxRSSRatio, 3)),
                ("flat", .bool(notFlat.isEmpty)), ("notFlat", .array(notFlat.map { .string($0) })),
                ("pingsAnswered", .unsigned(UInt64(bench.pingsAnswered))),
                ("telemetryDatagrams", .unsigned(UInt64(bench.telemetryDatagrams))),
                ("wallSeconds", BenchSupport.json(wall, 2)), ("passed", .bool(passed)),
                ("checkpoints", .array(points.map(\.json))),
            ]
        )
        guard passed else { throw ExitCode(1) }
    }

    private func flatSummary(_ points: [SoakCheckpoint]) -> String {
        let lowest = points.map(\.pendingTimers.lowerBound).min() ?? 0
        let highest = points.map(\.pendingTimers.upperBound).max() ?? 0
        return "flat (pending work \(lowest)-\(highest) over the last window period before each checkpoint, "
            + "no higher in the later half of the run; live state the same at every checkpoint)"
    }

    private func report(_ failure: SoakBench.Failure) {
        FileHandle.standardError.write(
            Data(
                """
                soak: cycle \(failure.cycle) failed at \(failure.step): \(failure.detail)
                  seed \(seed); rerun: \(rerun)

                """.utf8
            )
        )
    }

    /// A line for people (left out under --json), pushed out at once for CI logs.
    private func say(_ line: String) {
        guard !json else { return }
        print(line)
        BenchSupport.flush()
    }
}
