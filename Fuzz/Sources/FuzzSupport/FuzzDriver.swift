import CLibFuzzer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the process to libFuzzer with `testOneInput` as the target.
///
/// SwiftPM links every executable with a `main` of its own (on Linux it renames the
/// module's entry point and points `main` at it), so libFuzzer's `main` cannot be used;
/// `LLVMFuzzerRunDriver` is the same driver, called from ours. The command line is
/// libFuzzer's (`-runs=`, `-max_total_time=`, corpus directories ...).
///
/// With `AWAREBENCH_FUZZ_SEEDS=DIR` in the environment the program writes `seeds()` to DIR
/// instead and exits: the committed corpora under Fuzz/Corpus come from there, built with
/// the main package's own corpus code rather than copied octets.
public func runFuzzer(
    seeds: () -> [FuzzSeed] = { [] },
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> Never {
    if let directory = getenv("AWAREBENCH_FUZZ_SEEDS").map({ String(cString: $0) }) {
        exit(FuzzSeed.write(seeds(), to: directory) ? 0 : 1)
    }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
