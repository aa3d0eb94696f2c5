/// How the accessory pairs: the phone asks for PIN keypad entry, so the accessory displays a PIN
/// (apple-peer-model.md 3), runs PASN and caches the keys to be recognised later.
public struct PairingSettings: Codable, Hashable, Sendable {
    public var bootstrappingMethods: [BootstrappingMethod]
    public var pin: PinPolicy
    public var cache: PairingCache
    public var cipherSuites: [PairingCipherSuite]

    public init(
        bootstrappingMethods: [BootstrappingMethod] = [.pinDisplay],
        pin: PinPolicy = PinPolicy(),
        cache: PairingCache = PairingCache(),
        cipherSuites: [PairingCipherSuite] = [.pasn128]
    ) {
        self.bootstrappingMethods = bootstrappingMethods
        self.pin = pin
        self.cache = cache
        self.cipherSuites = cipherSuites
    }

    /// The bootstrapping-method bitmap the accessory advertises.
    public var bootstrappingBitmap: UInt16 { bootstrappingMethods.reduce(0) { $0 | $1.bit } }
}
