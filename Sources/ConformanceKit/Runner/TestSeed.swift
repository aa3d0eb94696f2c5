import AwareCore
import AwareWire

/// How seeds are derived (docs/reference/reports.md, "Seeds"), so that anyone can recompute them:
/// a test's seed is the first SplitMix64 output of `base XOR FNV-1a-64(ID)`, and iteration k (from 1)
/// runs with the base seed `base + k - 1`. Rerunning iteration k alone is then `--seed <base + k - 1>
/// --iterations 1`.
public enum TestSeed {
    public static func derive(base: UInt64, id: TestID) -> UInt64 {
        derive(base: base, label: id.description)
    }

    public static func derive(base: UInt64, label: String) -> UInt64 {
        var generator = SeededGenerator(seed: base ^ fnv1a64(label))
        return generator.next()
    }

    /// The base seed iteration `iteration` (from 1) runs with.
    public static func base(_ base: UInt64, iteration: Int) -> UInt64 {
        base &+ UInt64(truncatingIfNeeded: max(iteration, 1) - 1)
    }

    /// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the UTF-8 octets.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for octet in text.utf8 {
            hash ^= UInt64(octet)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
