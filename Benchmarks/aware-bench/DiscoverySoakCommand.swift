import AccessoryKit
import ArgumentParser
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

struct DiscoverySoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discovery-soak",
        abstract: "Simulated seconds per wall-clock second for an hour of accessory-and-phone discovery.",
        discussion: """
            Two runs on a SimulatedAir under virtual time, each for --simulated-seconds, timed \
            from the first event to the last (set-up excluded), one thread:
            - baseline "accessory-alone": the profile's accessory (AccessoryKit Accessory, \
            synchronized mode) by itself: it scans, forms a \
            cluster, beacons and publishes in every discovery \
            window with nobody listening. What the air and \
            scheduler cost to keep one NAN device alive.
            - soak: the same accessory plus a phone-like subscriber \
            2 m away (a NANDevice, synchronized, master \
            preference 128 as the runner's phone) doing an \
            ACTIVE subscribe to the profile's first service \
            with that service's matching filter, so every \
            window carries the accessory's beacons and \
            publishes, the phone's beacons and subscribes, \
            and the accessory's solicited replies.

            How to read it: "soak = 0.45 x accessory-alone" means the hour with the phone \
            simulates at 0.45 times the speed of the hour without it (the phone, its \
            subscribes and the replies cost 1/0.45 as much wall time). Simulated seconds per \
            wall second, events executed, frames sent (transmissions) and delivered \
            (receptions) and discovery results are printed for both, for orientation; only \
            the ratio is meant to be compared across machines. The engine reports a publisher \
            once per subscribe (and again when its Service Update Indicator changes), and the \
            accessory answers every Subscribe but reports each subscriber once, so over an \
            hour "discovery results" and "subscribers answered" stay at 1: the frames are in \
            the air counters.

            Exits 1 if the phone never discovers the accessory (the soak measured nothing \
            worth measuring), 3 if the profile cannot be loaded.
            """
    )

    @Option(help: "Simulated seconds to run each case.")
    var simulatedSeconds = 3600.0

    @Option(help: "Seeds the air, the accessory and the phone.")
    var seed: UInt64 = 1

    @Option(help: "The accessory's profile (looked up above the binary too).")
    var profile = "Profiles/drone.json"

    @Option(help: "Runs of each case; the one with the median wall time is reported (the runs are identical).")
    var repetitions = 5

    func validate() throws {
        guard simulatedSeconds > 0, simulatedSeconds <= 86_400 else {
            throw ValidationError("--simulated-seconds must be in (0, 86400]")
        }
        guard repetitions >= 1, repetitions <= 101 else { throw ValidationError("--repetitions must be in 1...101") }
    }

    struct Outcome {
        var run: SimulationRun
        var results = 0
        var solicitedResults = 0
        var firstResult: Instant?
        var replies = 0
    }

    func run() throws {
        let accessoryProfile = try BenchSupport.loadProfile(path: profile)
        guard let service = accessoryProfile.services.first else {
            throw BenchSupport.failure(3, "discovery-soak: \(profile) has no service")
        }
        let end = Instant.zero + .seconds(simulatedSeconds)
        print(
            "discovery-soak: \(profile) (\(service.name)), \(BenchSupport.fixed(simulatedSeconds, 0)) simulated s, "
                + "seed \(seed), synchronized, active subscribe"
        )
        BenchSupport.flush()

        let baseline = try median { try measure(profile: accessoryProfile, service: nil, until: end) }
        report(baseline, label: "accessory-alone", baseline: nil)
        let soak = try median { try measure(profile: accessoryProfile, service: service, until: end) }
        report(soak, label: "soak", baseline: baseline)

        guard soak.results > 0 else {
            throw BenchSupport.failure(1, "discovery-soak: the phone never discovered \(service.name)")
        }
        let ratio =
            baseline.run.simulatedPerWallSecond > 0
            ? soak.run.simulatedPerWallSecond / baseline.run.simulatedPerWallSecond : 0
        var members: [(String, JSONValue)] = [
            ("profile", .string(profile)), ("service", .string(service.name)), ("seed", .unsigned(seed)),
            ("repetitions", .unsigned(UInt64(repetitions))), ("subscribe", .string("active")),
            ("simulatedSeconds", BenchSupport.json(simulatedSeconds, 1)),
            ("baseline", .string("accessory-alone")),
            ("baselineSimulatedPerWallSecond", BenchSupport.json(baseline.run.simulatedPerWallSecond, 1)),
            ("baselineWallSeconds", BenchSupport.json(baseline.run.wallSeconds)),
            ("baselineEvents", .unsigned(baseline.run.eventsExecuted)),
            ("simulatedPerWallSecond", BenchSupport.json(soak.run.simulatedPerWallSecond, 1)),
            ("wallSeconds", BenchSupport.json(soak.run.wallSeconds)),
            ("speedInBaselines", BenchSupport.json(ratio, 3)),
            ("events", .unsigned(soak.run.eventsExecuted)),
            ("discoveryResults", .unsigned(UInt64(soak.results))),
            ("solicitedResults", .unsigned(UInt64(soak.solicitedResults))),
            ("firstDiscoverySeconds", BenchSupport.json(soak.firstResult?.seconds ?? 0, 6)),
            ("repliedSubscribers", .unsigned(UInt64(soak.replies))),
        ]
        members += baseline.run.statisticsMembers("baseline")
        members += soak.run.statisticsMembers("soak")
        BenchSupport.printJSONLine(benchmark: "discovery-soak", members)
    }

    /// The run with the median wall time of --repetitions identical runs: one busy moment on
    /// a shared machine then moves neither case.
    private func median(_ body: () throws -> Outcome) throws -> Outcome {
        var outcomes: [Outcome] = []
        for _ in 0..<repetitions { outcomes.append(try body()) }
        outcomes.sort { $0.run.wallSeconds < $1.run.wallSeconds }
        return outcomes[outcomes.count / 2]
    }

    /// One run: the accessory alone (`service` nil) or with a phone subscribing to `service`.
    private func measure(profile: AccessoryProfile, service: ServiceProfile?, until end: Instant) throws -> Outcome {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        let accessory = Accessory(profile: profile, air: air, options: AccessoryOptions(seed: seed))
        var outcome = Outcome(
            run: SimulationRun(name: "", simulatedSeconds: 0, wallSeconds: 0, eventsExecuted: 0, statistics: .init())
        )
        accessory.eventHandler = { event in if event.name == "replied" { outcome.replies += 1 } }
        var phone: NANDevice?
        let phoneResults = PhoneResults()
        if service != nil {
            let address = BenchSupport.address(tag: 0xB0, index: Int(truncatingIfNeeded: seed))
            let device = NANDevice(
                configuration: NANDevice.Configuration(
                    name: "phone",
                    address: address,
                    position: StationConfiguration.Position(x: 2, y: 0),
                    synchronization: SynchronizationConfiguration(address: address, masterPreference: 128)
                ),
                air: air,
                seed: seed ^ 0x5048_4F4E_4521
            )
            device.delegate = phoneResults
            phone = device
        }
        do {
            try accessory.start()
            if let phone, let service {
                try phone.start()
                phone.perform(
                    .subscribe(
                        SubscribeConfiguration(
                            serviceName: service.name,
                            mode: .active,
                            matchingFilter: service.matchingFilter
                        )
                    )
                )
            }
        } catch {
            throw BenchSupport.failure(1, "discovery-soak: cannot join the simulated air: \(error)")
        }
        outcome.run = SimulationRun.measure(service == nil ? "accessory-alone" : "soak", air: air, until: end)
        outcome.results = phoneResults.results
        outcome.solicitedResults = phoneResults.solicitedResults
        outcome.firstResult = phoneResults.firstResult
        phone?.stop()
        accessory.stop()
        return outcome
    }

    private func report(_ outcome: Outcome, label: String, baseline: Outcome?) {
        let run = outcome.run
        var line =
            "  \(label.padding(toLength: 16, withPad: " ", startingAt: 0))"
            + "\(BenchSupport.grouped(run.simulatedPerWallSecond)) simulated s per wall s "
            + "(\(BenchSupport.fixed(run.wallSeconds, 3)) s wall, \(BenchSupport.grouped(Double(run.eventsExecuted))) events)"
        if let baseline, baseline.run.simulatedPerWallSecond > 0 {
            line += " = \(BenchSupport.fixed(run.simulatedPerWallSecond / baseline.run.simulatedPerWallSecond, 3)) x "
            line += "accessory-alone"
        } else {
            line += "  [baseline]"
        }
        print(line)
        print("    air: \(run.statisticsLine)")
        if baseline != nil {
            let first = outcome.firstResult.map { BenchSupport.fixed($0.seconds, 3) + " s" } ?? "never"
            print(
                "    phone: \(BenchSupport.grouped(Double(outcome.results))) discovery results "
                    + "(\(BenchSupport.grouped(Double(outcome.solicitedResults))) solicited), first at \(first); "
                    + "accessory reported \(BenchSupport.grouped(Double(outcome.replies))) subscriber(s) it answered"
            )
        }
        BenchSupport.flush()
    }
}

/// The phone's delegate: counts the matched discovery results it gets.
private final class PhoneResults: NANDeviceDelegate {
    var results = 0
    var solicitedResults = 0
    var firstResult: Instant?

    func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
        guard case .discovery(.discoveryResult(let result)) = notification, result.matched else { return }
        results += 1
        if result.solicited { solicitedResults += 1 }
        if firstResult == nil { firstResult = device.now }
    }
}
