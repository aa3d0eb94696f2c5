import AccessoryKit
import ArgumentParser
import AwareProtocol
import AwareWire
import Foundation

struct DataPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datapath",
        abstract: "Paired data paths on the simulated air: latency per access category, goodput, frame rate, memory.",
        discussion: """
            Everything runs on the simulated air in virtual time, one accessory and the runner's \
            phones in this process, each part on a fresh air, in this order:

            1. memory: VmRSS of /proc/self/status with the drone alone (started, 2 virtual s; \
            baseline 1), then with --phones phones paired and no data path (baseline 2), then \
            with --active of them on a bulk data path and telemetry flowing for \
            --memory-seconds. It runs first so that the heap the other parts leave behind is \
            not counted. The phones live in this process: the figures include them, and \
            baseline 2 shows their share.
            2. latency: for bulk and realtime x the 4 access categories, a fresh drone and \
            phone pair, open a data path in that mode (the accessory switched to it) and ask \
            for a \(DataPathLatency.rateMillihertz / 1000) Hz x \(DataPathLatency.payloadOctets)-octet \
            datagram stream with the category's TID for --seconds virtual seconds. Reported: \
            the phone's one-way latencies of the stream (mean, p50, p95, p99, max, ms) and the \
            accessory radio's transmit latency in that category (queued to acknowledged, every \
            frame of the category on the link, the drone's own telemetry included when it \
            shares the category). Baseline: the schedule's analytic bound, bulk = the longest \
            gap of its schedule (\(PerformanceMode.bulk.longestGapTU) TU) + one slot \
            (\(PerformanceMode.slotTU) TU), realtime = one slot; ratio = measured p99 / bound.
            3. goodput: the camera profile, with a --file-megabytes MiB file added to a copy of \
            it (Profiles/ is not changed); THUMB0001.JPG and that file pulled on one bulk data \
            path. Goodput = file octets / virtual time from the request to the verified last \
            octet. Baseline: the performance report's throughputCapacityMbps for the link (PHY \
            rate x duty cycle x MAC efficiency \(PerformanceReport.defaultMACEfficiency)).
            4. frames: data frames the air carries per CPU second of this process \
            (CLOCK_PROCESS_CPUTIME_ID) in a saturated bulk stream (2 000 x 1 024-octet datagrams \
            per second offered, --frame-seconds virtual seconds, set-up not timed). Baseline: \
            management frames (beacons, SDFs) per CPU second in a discovery load of \
            \(DataPathFrameRate.baselinePublishers) synchronized publishers and a passive \
            subscriber (after its 3 s cluster scan) for \(Int(DataPathFrameRate.baselineStretch)) x \
            that virtual time. Ratio = data / management rate. The data run's CPU time includes \
            making the datagrams that go (most of the offered load expires unmade: a stream's \
            datagrams are made only when the data path sends them), the \
            encryption and decryption of every data frame and the phone's app transport; a \
            management frame of the load reaches about 15 receivers, a data frame one.

            Exits 1 when a pairing, a data path, a stream or a transfer fails.
            """
    )

    @Option(help: "Virtual seconds of each latency stream.")
    var seconds = 20.0

    @Option(help: "Seeds the air and every device.")
    var seed: UInt64 = 1

    @Option(help: "The drone profile.")
    var drone = "Profiles/drone.json"

    @Option(help: "The camera profile (a copy gets the added file).")
    var camera = "Profiles/camera.json"

    @Option(help: "MiB of the file added to the camera profile's copy.")
    var fileMegabytes = 4

    @Option(help: "Virtual seconds of the saturated stream and of the discovery load.")
    var frameSeconds = 5.0

    @Option(help: "Phones paired in the memory part.")
    var phones = 16

    @Option(help: "Phones of those with a data path up in the memory part.")
    var active = 8

    @Option(help: "Virtual seconds the memory part's data paths carry telemetry.")
    var memorySeconds = 3.0

    @Flag(help: "Print only the JSON line.")
    var json = false

    func validate() throws {
        guard seconds >= 1, seconds <= 600 else { throw ValidationError("--seconds must be in 1...600") }
        guard frameSeconds >= 0.5, frameSeconds <= 600 else {
            throw ValidationError("--frame-seconds must be in 0.5...600")
        }
        guard (1...1024).contains(fileMegabytes) else { throw ValidationError("--file-megabytes must be in 1...1024") }
        guard (1...64).contains(phones) else { throw ValidationError("--phones must be in 1...64") }
        guard (0...phones).contains(active) else { throw ValidationError("--active must be in 0...--phones") }
        guard memorySeconds >= 0.5, memorySeconds <= 600 else {
            throw ValidationError("--memory-seconds must be in 0.5...600")
        }
    }

    func run() throws {
        let wall = ContinuousClock()
        let began = wall.now
        let droneProfile = try BenchSupport.loadProfile(path: drone)
        let cameraProfile = try BenchSupport.loadProfile(path: camera)
        say("datapath: simulated air, virtual time, seed \(seed); drone \(drone), camera \(camera)")

        let memory = try DataPathMemory.measure(
            profile: droneProfile,
            phones: phones,
            active: active,
            seconds: memorySeconds,
            seed: seed
        )
        say("")
        say("memory: resident set (VmRSS), one process holding the accessory AND the phones")
        for line in memory.lines { say(line) }

        say("")
        say(
            "latency: \(DataPathLatency.rateMillihertz / 1000) Hz x \(DataPathLatency.payloadOctets) octets per AC, "
                + "\(BenchSupport.fixed(seconds, 0)) virtual s each; ms; baseline = the schedule's bound"
        )
        say(DataPathLatency.header)
        var latencies: [DataPathLatency] = []
        for mode in PerformanceMode.allCases {
            for category in AccessCategory.allCases {
                let measured = try DataPathLatency.measure(
                    profile: droneProfile,
                    mode: mode,
                    category: category,
                    seconds: seconds,
                    seed: seed
                )
                latencies.append(measured)
                say(measured.row)
            }
        }

        say("")
        let fileOctets = fileMegabytes * 1_048_576
        let goodputProfile = try DataPathGoodput.profile(camera: cameraProfile, addedOctets: fileOctets)
        let files = ["THUMB0001.JPG", DataPathGoodput.addedFile]
        say("goodput: camera profile (copy + \(DataPathGoodput.addedFile), \(fileMegabytes) MiB), bulk data path")
        say(DataPathGoodput.header)
        let goodputs = try DataPathGoodput.measure(profile: goodputProfile, files: files, seed: seed)
        for goodput in goodputs { say(goodput.row) }
        guard goodputs.allSatisfy(\.hashMatches) else {
            throw BenchSupport.failure(1, "datapath: a transferred file's SHA-256 does not match")
        }

        say("")
        say("frames: frames the simulated air carries per CPU second")
        let saturated = try DataPathFrameRate.saturated(profile: droneProfile, seconds: frameSeconds, seed: seed)
        say(saturated.line)
        let load = try DataPathFrameRate.discoveryLoad(seconds: frameSeconds, seed: seed)
        say(load.line)
        let frameRatio = load.perCPUSecond > 0 ? saturated.perCPUSecond / load.perCPUSecond : 0
        say(
            "  data frames \(BenchSupport.grouped(saturated.perCPUSecond)) per CPU s = "
                + "\(BenchSupport.fixed(frameRatio, 3)) x management frames of the discovery load "
                + "(\(BenchSupport.grouped(load.perCPUSecond)) per CPU s)  [baseline]"
        )
        let wallSeconds = BenchSupport.seconds(wall.now - began)
        say("")
        say("wall time \(BenchSupport.fixed(wallSeconds, 1)) s")

        BenchSupport.printJSONLine(
            benchmark: "datapath",
            [
                ("seed", .unsigned(seed)), ("seconds", BenchSupport.json(seconds, 1)),
                ("wallSeconds", BenchSupport.json(wallSeconds, 2)),
                ("memory", memory.json),
                ("latencyBaseline", .string("bulk: longest schedule gap + one slot; realtime: one slot")),
                ("latency", .array(latencies.map(\.json))),
                ("goodputBaseline", .string("PerformanceReport.throughputCapacityMbps")),
                ("goodput", .array(goodputs.map(\.json))),
                ("framesBaseline", .string("management frames per CPU second, discovery load")),
                ("frames", .object([("saturated", saturated.json), ("discoveryLoad", load.json)])),
                ("dataOverManagementFrameRate", BenchSupport.json(frameRatio, 3)),
            ]
        )
    }

    private func say(_ line: String) {
        guard !json else { return }
        print(line)
        BenchSupport.flush()
    }
}
