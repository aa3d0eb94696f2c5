/// Whether the target lets the runner do something to the accessory (restart it, run it with another
/// profile variant), and if not, why: the reason becomes the skip reason of every test that needs it.
public enum TargetAbility: Hashable, Sendable {
    case available
    case unavailable(reason: String)

    public var isAvailable: Bool { self == .available }
}
