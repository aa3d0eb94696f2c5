import AwareCrypto
import AwareWire

/// How the phone pairs: what it asks for and what it does when a test wants it to misbehave.
public struct PhonePairingOptions: Hashable, Sendable {
    /// The phone's own method in the bootstrapping request: PIN keypad, as an iPhone sends
    /// (apple-peer-model.md 3).
    public var method: BootstrappingMethods
    public var suite: NANSecurityCipherSuite
    /// The phone keeps NPK and NIK (its DCEA says so and it sends its NIK after pairing).
    public var cachesKeys: Bool
    /// Skip bootstrapping and start PASN at once (a rogue phone; tests of refusal).
    public var skipsBootstrapping: Bool
    /// Stop after PASN frame 2 and send an abort instead of frame 3.
    public var abortsAfterFrame2: Bool
    /// A wrong NPK for verification (tests that the accessory checks frame 3's MIC).
    public var corruptsCachedNPK: Bool
    /// Carry on to frame 3 even when frame 2's MIC does not verify (a rogue phone).
    public var ignoresFrame2MIC: Bool
    /// Answer the comeback with another cookie.
    public var wrongCookie: Bool
    /// Send its NIK after pairing even when caching is off on one side (a rogue phone: tests
    /// that the accessory then keeps its own NIK to itself).
    public var sendsNIKRegardless = false

    public init(
        method: BootstrappingMethods = .pinCodeKeypad,
        suite: NANSecurityCipherSuite = .ncsPKPASN128,
        cachesKeys: Bool = true,
        skipsBootstrapping: Bool = false,
        abortsAfterFrame2: Bool = false,
        corruptsCachedNPK: Bool = false,
        ignoresFrame2MIC: Bool = false,
        wrongCookie: Bool = false
    ) {
        self.method = method
        self.suite = suite
        self.cachesKeys = cachesKeys
        self.skipsBootstrapping = skipsBootstrapping
        self.abortsAfterFrame2 = abortsAfterFrame2
        self.corruptsCachedNPK = corruptsCachedNPK
        self.ignoresFrame2MIC = ignoresFrame2MIC
        self.wrongCookie = wrongCookie
    }
}
