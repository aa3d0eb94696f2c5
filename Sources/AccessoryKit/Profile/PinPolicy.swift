/// The PIN the accessory displays and how it treats wrong guesses.
public struct PinPolicy: Codable, Hashable, Sendable {
    /// Digits in the PIN. Six unless a fixed PIN says otherwise (Espressif's accessories use six).
    public var length: Int
    /// A fixed PIN for test benches; nil draws a fresh PIN for every pairing.
    public var fixed: String?
    /// Wrong PINs (failed PASN confirmations) before the accessory locks pairing.
    public var maxWrongAttempts: Int
    /// How long pairing stays locked after too many wrong PINs.
    public var lockoutSeconds: Int
    /// The Comeback After value (TU) of the bootstrapping response that shows the PIN
    /// (nan-wire-reference.md 2.18, 3.2; hostap uses 1024).
    public var comebackAfterTU: Int

    public init(
        length: Int = 6,
        fixed: String? = nil,
        maxWrongAttempts: Int = 3,
        lockoutSeconds: Int = 60,
        comebackAfterTU: Int = 1024
    ) {
        self.length = length
        self.fixed = fixed
        self.maxWrongAttempts = maxWrongAttempts
        self.lockoutSeconds = lockoutSeconds
        self.comebackAfterTU = comebackAfterTU
    }
}
