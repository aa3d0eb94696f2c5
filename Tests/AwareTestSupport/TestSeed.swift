import Foundation

/// The seed of a test that draws random values: `AWAREBENCH_SEED` when it is set, else a fresh
/// one for this run. A test puts ``description`` in its failure messages, so that a failure
/// names the command that repeats it exactly.
public struct TestSeed: Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let text = environment["AWAREBENCH_SEED"],
            let seed = UInt64(text) ?? UInt64(text.dropFirst(text.hasPrefix("0x") ? 2 : 0), radix: 16)
        {
            value = seed
        } else {
            var system = SystemRandomNumberGenerator()
            value = system.next()
        }
    }

    public init(_ value: UInt64) { self.value = value }

    /// A generator that draws from this seed: the same values for the same seed.
    public func generator() -> SeededTestGenerator { SeededTestGenerator(seed: value) }

    public var description: String { "seed \(value); rerun with AWAREBENCH_SEED=\(value)" }
}

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and the same on every platform.
public struct SeededTestGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
