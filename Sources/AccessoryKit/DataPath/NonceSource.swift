import AwareWire

/// Where the accessory's NDP nonces come from: the run's seed on the simulated air, so a run
/// replays bit for bit, and the system CSPRNG on shared and real airs, like its PINs.
final class NonceSource {
    private var generator: SeededGenerator
    private let seeded: Bool

    init(seed: UInt64, seeded: Bool) {
        generator = SeededGenerator(seed: seed)
        self.seeded = seeded
    }

    func bytes(_ count: Int) -> [UInt8] {
        if seeded { return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var system = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &system) }
    }
}
