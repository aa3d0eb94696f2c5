/// Where the accessory's PINs come from.
public enum PINSource: Hashable, Sendable {
    /// The system's CSPRNG: what a real accessory does, and what `accessory-emu` does on a
    /// shared or real air.
    case systemRandom
    /// The run's seeded generator: on the simulated air a seed then replays a pairing bit for
    /// bit, SAE frames included. The PIN is still shown only on the display.
    case seeded
}
