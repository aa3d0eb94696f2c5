import ArgumentParser
import AwareCore
import AwareFuzzing
import AwareWire
import Foundation

/// What the subcommands share: the corpus, where things are, output and timing.
enum BenchSupport {
    /// The path of the hostap session capture inside the repository.
    static let sessionCapturePath = "Fixtures/hostap-session-A/session.pcap"

    /// The directory of the running aware-bench binary, symlinks resolved.
    static var executableDirectory: URL {
        let executable =
            Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "aware-bench")
        return executable.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The hostap session capture: `explicit` if given, else the first
    /// Fixtures/hostap-session-A/session.pcap found in the working directory or above it,
    /// or above the binary (.build/<triple>/release/aware-bench sits inside the checkout).
    static func locateSessionCapture(explicit: String?) throws -> URL {
        if let explicit {
            let url = URL(fileURLWithPath: explicit)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw failure(3, "aware-bench: --session-capture \(explicit) does not exist")
            }
            return url
        }
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), executableDirectory]
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = directory.appendingPathComponent(sessionCapturePath)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        throw failure(
            3,
            """
            aware-bench: \(sessionCapturePath) was found neither above the working directory nor above \
            \(executableDirectory.path); run from the checkout or pass --session-capture PATH
            """
        )
    }

    /// FrameCorpus.frames plus the 37 frames of the hostap session: the robustness corpus,
    /// the same one RobustnessTests uses, so a seed and an index name the same input in both.
    static func robustnessFrames(sessionCapture explicit: String?) throws -> (frames: [[UInt8]], session: URL) {
        let url = try locateSessionCapture(explicit: explicit)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw failure(3, "aware-bench: cannot read \(url.path): \(error)")
        }
        do {
            let records = try CaptureReader.read(bytes: Array(data))
            return (FrameCorpus.frames + records.map(\.frame), url)
        } catch {
            throw failure(3, "aware-bench: \(url.path) is not a capture AwareWire reads: \(error)")
        }
    }

    /// Prints `message` to standard error and returns the exit code to throw.
    static func failure(_ code: Int32, _ message: String) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(code)
    }

    /// The machine-readable last line: `{"benchmark":"name",...}`.
    static func printJSONLine(benchmark: String, _ members: [(String, JSONValue)]) {
        print(JSONValue.object([("benchmark", .string(benchmark))] + members).serialized)
    }

    /// Pushes printed lines out now, so progress shows in a CI log whose stdout is a pipe.
    static func flush() { fflush(nil) }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `1234567.8` as "1,234,568".
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { out.append(",") }
            out.append(character)
        }
        return String(out.reversed())
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// JSON for a Double rounded to `decimals`, so log lines stay short.
    static func json(_ value: Double, _ decimals: Int = 3) -> JSONValue {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return .double((value * scale).rounded() / scale)
    }
}

/// Keeps the optimizer from dropping work whose result is otherwise unused.
enum Sink {
    nonisolated(unsafe) static var value = 0

    @inline(never)
    static func consume(_ x: Int) { value &+= x }
}
