import ArgumentParser
import AwareCore
import AwareFuzzing
import AwareWire
import Foundation

struct RobustnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robustness",
        abstract: "Push millions of mutated and random frames through the decoder; fail on any broken property.",
        discussion: """
            Inputs come from FrameCorpus (a publish, subscribes with address-list and Bloom SRFs, \
            follow-ups with bootstrapping request and comeback, data-path NAFs with NDP/NDPE, \
            availability, NDC, NDL, NDL QoS, CSIA, SCIA, SKDA, sync and discovery beacons, PASN \
            frames 1-3 with a fragmented Wrapped Data) plus the 37 frames of the hostap session \
            capture. Frame input i is, by a roll of its own generator: 70 % a corpus frame after \
            1-4 byte mutations (or noise), 12 % a correct header followed by random attributes or \
            elements, 18 % a mutated radiotap packet read through a one-record pcap. Capture file \
            input i is a mutated pcap or pcapng file.

            For every input the decoder must throw a WireError or return a value that writes back \
            to exactly the input octets and whose decoded fields render as JSON and as text (for \
            capture files: records that survive a write and re-read, and frames that meet the \
            frame contract). A trap kills the process: CI sees the non-zero exit.

            Input i depends only on the seed and i, so the run is split over --threads without \
            changing an octet, and `--seed S --index i` rebuilds one failing input. The first \
            100,000 frame inputs of a seed are the ones `AWAREBENCH_SEED=S swift test --filter \
            RobustnessTests` checks.

            Reported: frames, decoded and rejected counts per input kind, wall time and frames per \
            second (all threads together); capture files are counted and timed on a line of their own.
            """
    )

    @Option(help: "Frame inputs to check.")
    var frames = 10_000_000

    @Option(help: "The run's seed (decimal or 0x-hex).")
    var seed: String = "1"

    @Option(name: .customLong("pcap-files"), help: "Capture file inputs to check (mutated pcap and pcapng files).")
    var pcapFiles = 10_000

    @Option(help: "Worker threads (default: the number of active processors).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Check only frame input <index> of the seed, and print it.")
    var index: Int?

    @Option(
        name: .customLong("pcap-index"),
        help: "Check only capture file input <pcap-index> of the seed, and print it."
    )
    var pcapIndex: Int?

    @Option(
        name: .customLong("session-capture"),
        help: "The hostap session pcap (default: Fixtures/hostap-session-A/session.pcap above the working directory)."
    )
    var sessionCapture: String?

    func validate() throws {
        guard frames >= 0, pcapFiles >= 0 else { throw ValidationError("--frames and --pcap-files are counts") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard parsedSeed != nil else { throw ValidationError("--seed must be a decimal or 0x-hex 64-bit number") }
    }

    var parsedSeed: UInt64? {
        seed.hasPrefix("0x") ? UInt64(seed.dropFirst(2), radix: 16) : UInt64(seed)
    }

    func run() throws {
        let seed = parsedSeed ?? 1
        let (corpus, session) = try BenchSupport.robustnessFrames(sessionCapture: sessionCapture)
        let robustness = DecoderRobustness(frames: corpus, seed: seed)
        print("robustness: seed \(seed), corpus of \(corpus.count) frames (FrameCorpus + \(session.path))")
        BenchSupport.flush()

        if index != nil || pcapIndex != nil {
            if let index { try checkOne(robustness.frameInput(at: index)) }
            if let pcapIndex { try checkOne(robustness.captureFileInput(at: pcapIndex)) }
            return
        }

        let frameRun = Self.measure(count: frames, threads: threads) { robustness.frameInput(at: $0) }
        let fileRun = Self.measure(count: pcapFiles, threads: threads) { robustness.captureFileInput(at: $0) }
        report(frameRun, fileRun, seed: seed)
        let violations = frameRun.violations + fileRun.violations
        guard violations.isEmpty else {
            for (input, reason) in violations.prefix(10) { print(rerunText(input, reason: reason, seed: seed)) }
            throw ExitCode(1)
        }
    }

    private func checkOne(_ input: DecoderRobustness.Input) throws {
        let outcome = DecoderRobustness.check(input)
        print(
            "\(input.kind.rawValue) input \(input.index) (\(input.bytes.count) octets): \(HexString.encode(input.bytes))"
        )
        print("outcome: \(outcome)")
        if case .violated = outcome { throw ExitCode(1) }
    }

    private func rerunText(_ input: DecoderRobustness.Input, reason: String, seed: UInt64) -> String {
        let binary = CommandLine.arguments.first ?? "aware-bench"
        let option = input.kind == .captureFile ? "--pcap-index" : "--index"
        return """
            VIOLATION: seed \(seed), \(input.kind.rawValue) input \(input.index): \(reason)
              input (\(input.bytes.count) octets): \(HexString.encode(input.bytes))
              rerun this input: \(binary) robustness --seed \(seed) \(option) \(input.index)
              rerun the run:    \(binary) robustness --frames \(frames) --pcap-files \(pcapFiles) --seed \(seed)
            """
    }

    struct Run {
        var tally = DecoderRobustness.Tally()
        var violations: [(DecoderRobustness.Input, String)] = []
        var seconds = 0.0
    }

    /// Results of the workers, merged under a lock.
    private final class Merger: @unchecked Sendable {
        private let lock = NSLock()
        private var run = Run()

        func add(_ tally: DecoderRobustness.Tally, _ violations: [(DecoderRobustness.Input, String)]) {
            lock.lock()
            defer { lock.unlock() }
            run.tally.add(tally)
            run.violations += violations
        }

        var result: Run {
            lock.lock()
            defer { lock.unlock() }
            return run
        }
    }

    /// Checks inputs `0..<count`, worker `w` taking `w, w + threads, ...`.
    static func measure(
        count: Int,
        threads: Int,
        input: @escaping @Sendable (Int) -> DecoderRobustness.Input
    ) -> Run {
        let merger = Merger()
        let workers = max(1, min(threads, count))
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var tally = DecoderRobustness.Tally()
            var violations: [(DecoderRobustness.Input, String)] = []
            var done = 0
            for index in stride(from: worker, to: count, by: workers) {
                let item = input(index)
                let outcome = DecoderRobustness.check(item)
                tally.record(outcome, kind: item.kind)
                if case .violated(let reason) = outcome, violations.count < 10 { violations.append((item, reason)) }
                done += 1
                if worker == 0, done % 1_000_000 == 0 {
                    let elapsed = BenchSupport.seconds(clock.now - start)
                    print(
                        "  ... \(BenchSupport.grouped(Double(done * workers))) inputs, \(BenchSupport.fixed(elapsed, 1)) s"
                    )
                    BenchSupport.flush()
                }
            }
            merger.add(tally, violations)
        }
        var run = merger.result
        run.seconds = BenchSupport.seconds(clock.now - start)
        run.violations.sort { $0.0.index < $1.0.index }
        return run
    }

    private func report(_ frameRun: Run, _ fileRun: Run, seed: UInt64) {
        let kinds = DecoderRobustness.frameKinds
        let frameTotal = frameRun.tally.total(kinds)
        let frameRate = frameRun.seconds > 0 ? Double(frameTotal) / frameRun.seconds : 0
        let fileTotal = fileRun.tally.total([.captureFile])
        let fileRate = fileRun.seconds > 0 ? Double(fileTotal) / fileRun.seconds : 0
        print("threads: \(threads)")
        for kind in kinds {
            let decoded = frameRun.tally.decoded[kind, default: 0]
            let rejected = frameRun.tally.rejected[kind, default: 0]
            print(
                "  \(kind.rawValue): \(BenchSupport.grouped(Double(decoded))) decoded, \(BenchSupport.grouped(Double(rejected))) rejected"
            )
        }
        print(
            "frames: \(BenchSupport.grouped(Double(frameTotal))) in \(BenchSupport.fixed(frameRun.seconds, 2)) s "
                + "= \(BenchSupport.grouped(frameRate)) frames/s; "
                + "\(BenchSupport.grouped(Double(frameRun.tally.decodedCount(kinds)))) decoded, "
                + "\(BenchSupport.grouped(Double(frameRun.tally.rejectedCount(kinds)))) rejected, "
                + "\(frameRun.tally.violatedCount()) violations"
        )
        print(
            "capture files: \(BenchSupport.grouped(Double(fileTotal))) in \(BenchSupport.fixed(fileRun.seconds, 2)) s "
                + "= \(BenchSupport.grouped(fileRate)) files/s; "
                + "\(BenchSupport.grouped(Double(fileRun.tally.decodedCount([.captureFile])))) read, "
                + "\(BenchSupport.grouped(Double(fileRun.tally.rejectedCount([.captureFile])))) rejected, "
                + "\(fileRun.tally.violatedCount()) violations"
        )
        var perKind: [(String, JSONValue)] = []
        for kind in kinds + [.captureFile] {
            let tally = kind == .captureFile ? fileRun.tally : frameRun.tally
            perKind.append(
                (
                    kind.rawValue,
                    .object([
                        ("decoded", .unsigned(UInt64(tally.decoded[kind, default: 0]))),
                        ("rejected", .unsigned(UInt64(tally.rejected[kind, default: 0]))),
                        ("violated", .unsigned(UInt64(tally.violated[kind, default: 0]))),
                    ])
                )
            )
        }
        BenchSupport.printJSONLine(
            benchmark: "robustness",
            [
                ("seed", .unsigned(seed)),
                ("threads", .unsigned(UInt64(threads))),
                ("frames", .unsigned(UInt64(frameTotal))),
                ("decoded", .unsigned(UInt64(frameRun.tally.decodedCount(kinds)))),
                ("rejected", .unsigned(UInt64(frameRun.tally.rejectedCount(kinds)))),
                ("violations", .unsigned(UInt64(frameRun.tally.violatedCount() + fileRun.tally.violatedCount()))),
                ("seconds", BenchSupport.json(frameRun.seconds)),
                ("framesPerSecond", BenchSupport.json(frameRate, 0)),
                ("captureFiles", .unsigned(UInt64(fileTotal))),
                ("captureFileSeconds", BenchSupport.json(fileRun.seconds)),
                ("byKind", .object(perKind)),
            ]
        )
    }
}
