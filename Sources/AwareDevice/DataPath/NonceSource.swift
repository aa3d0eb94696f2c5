import AwareCore
import AwareWire

/// Where a role's NDP nonces come from: the run's seed, so a run on the simulated air replays
/// bit for bit, or the system CSPRNG (the accessory on shared and real airs, like its PINs).
public final class NonceSource {
    private var generator: SeededGenerator
    private let seeded: Bool

    public init(seed: UInt64, seeded: Bool) {
        generator = SeededGenerator(seed: seed)
        self.seeded = seeded
    }

    public func bytes(_ count: Int) -> [UInt8] {
        if seeded { return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var system = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &system) }
    }
}
