import ArgumentParser
import AwareCore
import AwareCrypto
import AwareWire
import Foundation

struct SAEPTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sae-pt",
        abstract: "SAE hash-to-element PT derivations per CPU second for groups 19 and 20, as ratios.",
        discussion: """
            Times SAEPasswordElement.derive (the NAN pairing SSID, no identifier, a fresh 6-digit \
            PIN each iteration) in CPU time of this process (CLOCK_PROCESS_CPUTIME_ID), one \
            derivation at a time; the median counts, and PT/s is its inverse. One derivation is \
            HKDF, 2 SSWU maps (each 3 Fermat inversions, a Legendre symbol and a square root: \
            \(ECCBaseline.fieldExponentiationsPerPT) exponentiations mod p in all) and a point addition.

            Python `cryptography` has no hash-to-curve, so the baselines, measured in the same \
            run, are:
            - python cryptography: \(ECCBaseline.ptInVariableBase) k·P (an ECDH exchange) per PT, \
            since the \(ECCBaseline.fieldExponentiationsPerPT) exponentiations cost about the field \
            multiplications of one windowed scalar multiplication;
            - openssl speed ecdhp256|ecdhp384: \(ECCBaseline.ptInVariableBase) ECDH operation per PT;
            - python pow: the same \(ECCBaseline.fieldExponentiationsPerPT) exponentiations mod p with \
            Python's built-in big integers (the dominant work itself, in a slower arithmetic).

            Ratio = our CPU time per PT / the baseline's CPU time; above 1, ours is slower. A \
            baseline that cannot run is printed as unavailable and the command still exits 0.
            """
    )

    @Option(help: "Timed PT derivations per group (after 2 untimed ones).")
    var iterations = 40

    @Option(help: "SAE group: 19 (P-256), 20 (P-384) or all.")
    var group: ECCBaseline.Groups = .all

    @Option(help: "Seeds the PINs and the baseline's scalars.")
    var seed: UInt64 = 1

    @Flag(help: "Print only the JSON line.")
    var json = false

    @OptionGroup var baselineOptions: ECCBaseline.Options

    static let count = ECCBaseline.Count(fixedBase: 0, variableBase: 0, ptDerivations: 1)

    func validate() throws {
        guard iterations >= 1, iterations <= 1_000_000 else {
            throw ValidationError("--iterations must be in 1...1000000")
        }
    }

    func run() throws {
        if !json {
            print("sae-pt: CPU time per PT derivation, median of \(iterations), seed \(seed)")
            BenchSupport.flush()
        }
        var groups: [JSONValue] = []
        for curve in group.curves {
            var rng = SeededGenerator(seed: seed ^ UInt64(curve.rawValue))
            var failure: CryptoError?
            let samples = CPUClock.samples(iterations: iterations) { _ in
                let pin = Array(String(UInt32.random(in: 100_000...999_999, using: &rng)).utf8)
                do throws(CryptoError) {
                    let element = try SAEPasswordElement.derive(
                        group: curve,
                        password: pin,
                        ssid: SAEPasswordElement.nanPairingSSID
                    )
                    Sink.consume(Int(element.pt[0]))
                } catch {
                    failure = error
                }
            }
            if let failure {
                throw BenchSupport.failure(1, "sae-pt: a \(curve) PT derivation failed: \(failure)")
            }
            let median = CPUClock.median(samples)
            let baseline = ECCBaseline.measure(curve: curve, options: baselineOptions, seed: seed)
            if !json {
                print("  \(curve) baselines, measured now:")
                for line in baseline.summary.isEmpty ? ["none available"] : baseline.summary { print("    " + line) }
            }
            var comparison = baseline.compare(seconds: median, count: Self.count)
            if case .success(let python) = baseline.python {
                let exponentiations = Double(ECCBaseline.fieldExponentiationsPerPT) * python.fieldExponentiation
                comparison.lines.append(
                    "python pow: \(ECCBaseline.milliseconds(exponentiations)) for "
                        + "\(ECCBaseline.fieldExponentiationsPerPT) exponentiations mod p; "
                        + "ratio \(BenchSupport.fixed(median / exponentiations, 2))x"
                )
                comparison.json.append(
                    (
                        "pythonPow",
                        .object([
                            ("exponentiations", .unsigned(UInt64(ECCBaseline.fieldExponentiationsPerPT))),
                            ("seconds", BenchSupport.json(exponentiations, 7)),
                            ("ratio", BenchSupport.json(median / exponentiations, 3)),
                        ])
                    )
                )
            }
            if !json {
                print(
                    "    PT \(curve): \(ECCBaseline.milliseconds(median)) CPU per derivation = "
                        + "\(BenchSupport.grouped(1 / median)) PT/s"
                )
                for line in comparison.lines { print("      " + line) }
                BenchSupport.flush()
            }
            groups.append(
                .object(
                    [
                        ("group", .unsigned(UInt64(curve.rawValue))),
                        ("cpuSecondsMedian", BenchSupport.json(median, 7)),
                        ("cpuSecondsMin", BenchSupport.json(samples.min() ?? 0, 7)),
                        ("cpuSecondsMax", BenchSupport.json(samples.max() ?? 0, 7)),
                        ("ptPerSecond", BenchSupport.json(1 / median, 1)),
                    ] + comparison.json
                )
            )
        }
        BenchSupport.printJSONLine(
            benchmark: "sae-pt",
            [
                ("iterations", .unsigned(UInt64(iterations))), ("seed", .unsigned(seed)),
                ("clock", .string("CLOCK_PROCESS_CPUTIME_ID")),
                ("ptInVariableBase", .unsigned(UInt64(ECCBaseline.ptInVariableBase))),
                ("groups", .array(groups)),
            ]
        )
    }
}
