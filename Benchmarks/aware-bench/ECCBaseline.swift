import ArgumentParser
import AwareCore
import AwareCrypto
import AwareWire
import Foundation

/// The same-run baseline of `pairing` and `sae-pt`: other people's elliptic-curve code doing
/// as many scalar multiplications as ours does, timed on this machine in this run.
///
/// - python: Benchmarks/baselines/ecc_baseline.py in a python3 subprocess: `cryptography`
///   (OpenSSL) k·G (derive_private_key) and k·P (ECDH exchange), and Python's built-in pow()
///   for one field exponentiation, each as median CPU seconds per operation.
/// - openssl: `openssl speed -seconds N ecdhp256|ecdhp384`, ECDH operations (one k·P each) per
///   second; its wall time, which for a single-threaded speed run is its CPU time.
///
/// A baseline that cannot run is "unavailable: <why>", never a failure: our own figures still
/// stand, only the ratio is missing.
struct ECCBaseline {
    struct Options: ParsableArguments {
        @Option(help: "The python3 that runs the baseline (needs the `cryptography` package).")
        var python = "python3"

        @Option(
            help:
                "The baseline script (default: Benchmarks/baselines/ecc_baseline.py above the working directory or the binary)."
        )
        var baselineScript: String?

        @Option(help: "Seconds of `openssl speed` per curve; 0 skips the OpenSSL baseline.")
        var opensslSeconds = 1

        func validate() throws {
            guard (0...60).contains(opensslSeconds) else {
                throw ValidationError("--openssl-seconds must be in 0...60")
            }
        }
    }

    /// Which SAE groups to measure.
    enum Groups: String, ExpressibleByArgument, CaseIterable {
        case group19 = "19"
        case group20 = "20"
        case all

        var curves: [EllipticCurve] {
            switch self {
            case .group19: [.p256]
            case .group20: [.p384]
            case .all: [.p256, .p384]
            }
        }
    }

    /// What one measured operation costs in elliptic-curve work, the unit of the baselines.
    struct Count {
        var fixedBase: Int
        var variableBase: Int
        var ptDerivations: Int

        var scalarMultiplications: Int { fixedBase + variableBase }

        var text: String {
            var parts = ["\(scalarMultiplications) scalar multiplications (\(fixedBase) k·G + \(variableBase) k·P)"]
            if ptDerivations > 0 {
                parts.append("\(ptDerivations) PT derivation\(ptDerivations == 1 ? "" : "s")")
            }
            return parts.joined(separator: " + ")
        }
    }

    /// How a PT derivation is weighed in the scalar-multiplication baselines: as one k·P. Its
    /// two SSWU maps each do 3 Fermat inversions, a Legendre symbol and a square root, 10
    /// full-length exponentiations mod p in all, about the field multiplications of one
    /// windowed scalar multiplication. The python pow() baseline times those 10 directly.
    static let ptInVariableBase = 1
    static let fieldExponentiationsPerPT = 10

    struct Python {
        var library: String
        var fixedBase: Double
        var variableBase: Double
        var fieldExponentiation: Double

        func seconds(_ count: Count) -> Double {
            Double(count.fixedBase) * fixedBase
                + Double(count.variableBase + count.ptDerivations * ECCBaseline.ptInVariableBase) * variableBase
        }
    }

    struct OpenSSL {
        var version: String
        var ecdhPerSecond: Double

        /// openssl speed times k·P only, so every multiplication and PT counts as one ECDH.
        func operations(_ count: Count) -> Int {
            count.scalarMultiplications + count.ptDerivations * ECCBaseline.ptInVariableBase
        }

        func seconds(_ count: Count) -> Double { Double(operations(count)) / ecdhPerSecond }
    }

    struct Unavailable: Error {
        var reason: String
    }

    var curve: EllipticCurve
    var python: Result<Python, Unavailable>
    var openssl: Result<OpenSSL, Unavailable>

    static func measure(curve: EllipticCurve, options: Options, seed: UInt64) -> ECCBaseline {
        ECCBaseline(
            curve: curve,
            python: measurePython(curve: curve, options: options, seed: seed),
            openssl: measureOpenSSL(curve: curve, seconds: options.opensslSeconds)
        )
    }

    /// Our median CPU seconds for one operation of `count` against each baseline: lines for
    /// people and the JSON member of each. Ratio = our CPU time / the baseline's CPU time for the
    /// same count; above 1, ours is slower.
    func compare(seconds: Double, count: Count) -> (lines: [String], json: [(String, JSONValue)]) {
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        switch python {
        case .success(let python):
            let baseline = python.seconds(count)
            lines.append(
                "python cryptography: \(Self.milliseconds(baseline)) for the same count; "
                    + "ratio \(BenchSupport.fixed(seconds / baseline, 2))x"
            )
            json.append(
                (
                    "python",
                    .object([
                        ("library", .string(python.library)),
                        ("seconds", BenchSupport.json(baseline, 7)),
                        ("ratio", BenchSupport.json(seconds / baseline, 3)),
                    ])
                )
            )
        case .failure(let unavailable):
            lines.append("python cryptography: baseline unavailable: \(unavailable.reason)")
            json.append(("python", .object([("unavailable", .string(unavailable.reason))])))
        }
        switch openssl {
        case .success(let openssl):
            let baseline = openssl.seconds(count)
            lines.append(
                "openssl speed: \(Self.milliseconds(baseline)) for \(openssl.operations(count)) ECDH; "
                    + "ratio \(BenchSupport.fixed(seconds / baseline, 2))x"
            )
            json.append(
                (
                    "openssl",
                    .object([
                        ("version", .string(openssl.version)),
                        ("ecdhPerSecond", BenchSupport.json(openssl.ecdhPerSecond, 1)),
                        ("seconds", BenchSupport.json(baseline, 7)),
                        ("ratio", BenchSupport.json(seconds / baseline, 3)),
                    ])
                )
            )
        case .failure(let unavailable):
            lines.append("openssl speed: baseline unavailable: \(unavailable.reason)")
            json.append(("openssl", .object([("unavailable", .string(unavailable.reason))])))
        }
        return (lines, json)
    }

    /// Which baselines ran, and what they measured, for the lines above a group's results.
    var summary: [String] {
        var lines: [String] = []
        if case .success(let python) = python {
            lines.append(
                "python cryptography: \(Self.milliseconds(python.fixedBase)) per k·G, "
                    + "\(Self.milliseconds(python.variableBase)) per k·P (\(python.library))"
            )
        }
        if case .success(let openssl) = openssl {
            lines.append(
                "openssl speed ecdh\(curve == .p256 ? "p256" : "p384"): "
                    + "\(BenchSupport.grouped(openssl.ecdhPerSecond)) ECDH/s (\(openssl.version))"
            )
        }
        return lines
    }

    /// "4.10 ms", or "35.2 µs" below a millisecond.
    static func milliseconds(_ seconds: Double) -> String {
        seconds < 1e-3
            ? "\(BenchSupport.fixed(seconds * 1e6, 1)) µs" : "\(BenchSupport.fixed(seconds * 1e3, 2)) ms"
    }

    static func curveName(_ curve: EllipticCurve) -> String {
        switch curve {
        case .p256: "p256"
        case .p384: "p384"
        }
    }

    private static func measurePython(
        curve: EllipticCurve,
        options: Options,
        seed: UInt64
    ) -> Result<
        Python, Unavailable
    > {
        guard let python = executable(options.python) else {
            return .failure(Unavailable(reason: "\(options.python) not found (ci/setup installs python3-cryptography)"))
        }
        guard let script = locateScript(explicit: options.baselineScript) else {
            return .failure(
                Unavailable(
                    reason: options.baselineScript.map { "\($0) does not exist" }
                        ?? "Benchmarks/baselines/ecc_baseline.py not found above the working directory or the binary"
                )
            )
        }
        // P-384 operations take several times longer: fewer of them keep the run short.
        let ops = curve == .p256 ? 60 : 20
        let arguments = [script, "--curve", curveName(curve), "--ops", "\(ops)", "--rounds", "7", "--seed", "\(seed)"]
        let output: String
        switch run(python, arguments) {
        case .success(let text): output = text
        case .failure(let failure): return .failure(failure)
        }
        guard let figures = try? JSONValue(parsing: output),
            let library = figures["library"]?.stringValue,
            let fixedBase = figures["fixedBaseSeconds"]?.doubleValue,
            let variableBase = figures["variableBaseSeconds"]?.doubleValue,
            let fieldExponentiation = figures["fieldExpSeconds"]?.doubleValue,
            fixedBase > 0, variableBase > 0, fieldExponentiation > 0
        else {
            return .failure(Unavailable(reason: "\(script) printed no figures: \(output.prefix(200))"))
        }
        return .success(
            Python(
                library: library,
                fixedBase: fixedBase,
                variableBase: variableBase,
                fieldExponentiation: fieldExponentiation
            )
        )
    }

    private static func measureOpenSSL(curve: EllipticCurve, seconds: Int) -> Result<OpenSSL, Unavailable> {
        guard seconds > 0 else { return .failure(Unavailable(reason: "skipped (--openssl-seconds 0)")) }
        guard let openssl = executable("openssl") else {
            return .failure(Unavailable(reason: "openssl is not on PATH"))
        }
        let name = curve == .p256 ? "nistp256" : "nistp384"
        let version: String
        switch run(openssl, ["version"]) {
        // "OpenSSL 3.0.19 27 Jan 2026 (Library: ...)": the name and number are enough.
        case .success(let text): version = text.split(separator: " ").prefix(2).joined(separator: " ")
        case .failure(let failure): return .failure(failure)
        }
        let output: String
        switch run(openssl, ["speed", "-seconds", "\(seconds)", "ecdh\(curve == .p256 ? "p256" : "p384")"]) {
        case .success(let text): output = text
        case .failure(let failure): return .failure(failure)
        }
        // The result table's line: " 256 bits ecdh (nistp256)   0.0000s  29714.0" (op/s last).
        for line in output.split(separator: "\n") where line.contains("ecdh (\(name))") {
            if let last = line.split(separator: " ").last, let perSecond = Double(last), perSecond > 0 {
                return .success(OpenSSL(version: version, ecdhPerSecond: perSecond))
            }
        }
        return .failure(Unavailable(reason: "no `ecdh (\(name))` line in `openssl speed` output"))
    }

    /// `name` itself when it contains a slash, else the first match on PATH.
    private static func executable(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func locateScript(explicit: String?) -> String? {
        if let explicit { return FileManager.default.fileExists(atPath: explicit) ? explicit : nil }
        let relative = "Benchmarks/baselines/ecc_baseline.py"
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), BenchSupport.executableDirectory]
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = directory.appendingPathComponent(relative)
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// Standard output of a command that must exit 0; standard error goes to a file, so a
    /// chatty tool cannot fill a pipe nobody reads.
    private static func run(_ executable: String, _ arguments: [String]) -> Result<String, Unavailable> {
        let command = ([executable] + arguments).joined(separator: " ")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aware-bench-\(UUID().uuidString).err"
        )
        guard FileManager.default.createFile(atPath: errors.path, contents: nil),
            let errorHandle = try? FileHandle(forWritingTo: errors)
        else {
            return .failure(Unavailable(reason: "cannot create \(errors.path)"))
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        do {
            try process.run()
        } catch {
            return .failure(Unavailable(reason: "cannot start \(command): \(error)"))
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let detail = text.split(separator: "\n").suffix(3).joined(separator: " / ")
            return .failure(
                Unavailable(reason: "`\(command)` exited with status \(process.terminationStatus): \(detail)")
            )
        }
        return .success(String(decoding: data, as: UTF8.self))
    }
}
