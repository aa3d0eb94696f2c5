/// Everything a test's applicability is decided on: the profile's facts and what the target can do.
///
/// `embedded` and `spawn` own their accessory and can restart and reconfigure it; `socket` talks to an
/// accessory someone else started, so it sets both abilities to `.unavailable` with that reason.
public struct TargetCapabilities: Hashable, Sendable {
    /// How reports name the target: `embedded`, `spawn`, `socket:/run/user/1000/aware.sock`.
    public var target: String
    /// Nil when no profile was given; the runner refuses to start then (RunSetupError.missingProfile).
    public var profile: ProfileFacts?
    public var restart: TargetAbility
    public var reconfigure: TargetAbility

    public init(
        target: String,
        profile: ProfileFacts?,
        restart: TargetAbility = .available,
        reconfigure: TargetAbility = .available
    ) {
        self.target = target
        self.profile = profile
        self.restart = restart
        self.reconfigure = reconfigure
    }
}
