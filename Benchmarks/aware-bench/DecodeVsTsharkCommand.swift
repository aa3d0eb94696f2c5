import ArgumentParser
import AwareFuzzing
import AwareWire
import Foundation

struct DecodeVsTsharkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-vs-tshark",
        abstract: "Wall time of `aware-conform decode --json` against tshark on the same capture, as a ratio.",
        discussion: """
            Writes a radiotap pcap (link type 127) of --frames records cycling through \
            FrameCorpus (publish, subscribe, follow-up, data-path NAFs, beacons, PASN 1-3, ...), \
            then times, wall clock, best of --runs, each command with its output sent to /dev/null:

              aware-conform decode FILE --json
              tshark -r FILE -T fields -e frame.number -e nan.attribute.type -e nan.service_id \
                -e nan.instance_id

            Both read every record and dissect every NAN attribute; tshark prints four fields a \
            frame, aware-conform every decoded field as JSON, so the comparison favours tshark. \
            Both times include process start-up; the same two commands on a one-frame capture \
            are timed too and printed as start-up.

            How to read the ratio: "aware-conform / tshark = 0.40" means aware-conform took 40 % of \
            tshark's wall time on the same file in the same run; below 1 is faster.

            aware-conform is looked for next to this binary (build both with swift build -c \
            release); a missing binary or tshark is an environment error (exit 3), a command that \
            fails is exit 1.
            """
    )

    @Option(help: "Records in the capture.")
    var frames = 100_000

    @Option(name: .customLong("aware-conform"), help: "The aware-conform binary (default: next to aware-bench).")
    var awareConform: String?

    @Option(help: "The tshark binary (default: tshark on PATH).")
    var tshark: String?

    @Option(help: "Keep the capture in this directory instead of a temporary one.")
    var keep: String?

    @Option(help: "Timed runs of each command; the best counts.")
    var runs = 3

    /// Times this command (FILE replaced by the capture) in place of aware-conform, to try
    /// the harness before aware-conform has a decode subcommand. Reported as a stand-in.
    @Option(name: .customLong("stand-in"), help: .hidden)
    var standIn: String?

    func validate() throws {
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    struct Command {
        var executable: String
        var arguments: [String]
        var text: String { ([executable] + arguments).joined(separator: " ") }
    }

    func run() throws {
        let tsharkPath = try tshark ?? Self.onPath("tshark")
        guard FileManager.default.isExecutableFile(atPath: tsharkPath) else {
            throw BenchSupport.failure(3, "decode-vs-tshark: tshark not found at \(tsharkPath) (ci/setup installs it)")
        }
        let conformPath = awareConform ?? BenchSupport.executableDirectory.appendingPathComponent("aware-conform").path
        if standIn == nil, !FileManager.default.isExecutableFile(atPath: conformPath) {
            throw BenchSupport.failure(
                3,
                "decode-vs-tshark: no aware-conform at \(conformPath); build it (swift build -c release) or pass --aware-conform PATH"
            )
        }

        let directory: URL
        if let keep {
            directory = URL(fileURLWithPath: keep)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "aware-bench-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }

        let capture = directory.appendingPathComponent("decode-vs-tshark-\(frames).pcap")
        let small = directory.appendingPathComponent("decode-vs-tshark-1.pcap")
        let bytes = CaptureCorpus.radiotapCapture(frames: FrameCorpus.frames, count: frames)
        try Data(bytes).write(to: capture)
        try Data(CaptureCorpus.radiotapCapture(frames: FrameCorpus.frames, count: 1)).write(to: small)
        print(
            "decode-vs-tshark: \(capture.path): \(BenchSupport.grouped(Double(frames))) frames, \(bytes.count) octets"
        )
        BenchSupport.flush()

        let standInWords = standIn?.split(separator: " ").map(String.init) ?? []
        let standInExecutable = try standInWords.first.map { $0.contains("/") ? $0 : try Self.onPath($0) }
        func conformCommand(_ file: URL) -> Command {
            if let standInExecutable {
                let arguments = standInWords.dropFirst().map { $0 == "FILE" ? file.path : $0 }
                return Command(executable: standInExecutable, arguments: arguments)
            }
            return Command(executable: conformPath, arguments: ["decode", file.path, "--json"])
        }
        func tsharkCommand(_ file: URL) -> Command {
            Command(
                executable: tsharkPath,
                arguments: [
                    "-r", file.path, "-T", "fields", "-e", "frame.number", "-e", "nan.attribute.type", "-e",
                    "nan.service_id", "-e", "nan.instance_id",
                ]
            )
        }

        let subjectName = standIn == nil ? "aware-conform" : "stand-in"
        let conform = try best(conformCommand(capture))
        let shark = try best(tsharkCommand(capture))
        let conformStartup = try best(conformCommand(small))
        let sharkStartup = try best(tsharkCommand(small))
        let ratio = conform / shark

        print("  \(subjectName): \(conformCommand(capture).text)")
        print(
            "    best of \(runs): \(BenchSupport.fixed(conform, 3)) s (one-frame capture: \(BenchSupport.fixed(conformStartup, 3)) s)"
        )
        print("  tshark: \(tsharkCommand(capture).text)")
        print(
            "    best of \(runs): \(BenchSupport.fixed(shark, 3)) s (one-frame capture: \(BenchSupport.fixed(sharkStartup, 3)) s)"
        )
        print("  \(subjectName) / tshark = \(BenchSupport.fixed(ratio, 3)) (below 1: \(subjectName) is faster)")
        if standIn != nil { print("  NOTE: a stand-in was timed, not aware-conform; this is a harness check") }
        BenchSupport.printJSONLine(
            benchmark: "decode-vs-tshark",
            [
                ("frames", .unsigned(UInt64(frames))),
                ("captureOctets", .unsigned(UInt64(bytes.count))),
                ("subject", .string(subjectName)),
                ("runs", .unsigned(UInt64(runs))),
                ("awareConformSeconds", BenchSupport.json(conform)),
                ("tsharkSeconds", BenchSupport.json(shark)),
                ("awareConformStartupSeconds", BenchSupport.json(conformStartup)),
                ("tsharkStartupSeconds", BenchSupport.json(sharkStartup)),
                ("ratio", BenchSupport.json(ratio)),
                ("baseline", .string("tshark -T fields")),
            ]
        )
    }

    /// The best wall time of `runs` runs, stdout to /dev/null; a failing run is an error.
    private func best(_ command: Command) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try Self.time(command)) }
        return times.min() ?? 0
    }

    static func time(_ command: Command) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aware-bench-\(UUID().uuidString).err"
        )
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw BenchSupport.failure(3, "decode-vs-tshark: cannot create \(errors.path)")
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardError = errorHandle
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try process.run()
        } catch {
            throw BenchSupport.failure(3, "decode-vs-tshark: cannot start \(command.executable): \(error)")
        }
        process.waitUntilExit()
        let elapsed = BenchSupport.seconds(clock.now - start)
        try? errorHandle.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw BenchSupport.failure(
                1,
                "decode-vs-tshark: `\(command.text)` failed (status \(process.terminationStatus)):\n"
                    + text.split(separator: "\n").suffix(10).joined(separator: "\n")
            )
        }
        return elapsed
    }

    static func onPath(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchSupport.failure(3, "decode-vs-tshark: \(name) is not on PATH (ci/setup installs tshark)")
    }
}
