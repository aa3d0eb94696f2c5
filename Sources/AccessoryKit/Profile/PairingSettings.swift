/// How the accessory pairs: the phone asks for PIN keypad entry, so the accessory displays a PIN
/// (apple-peer-model.md 3), runs PASN and caches the keys to be recognised later.
public struct PairingSettings: Codable, Hashable, Sendable {
    public var bootstrappingMethods: [BootstrappingMethod]
    public var pin: PinPolicy
    public var cache: PairingCache
    public var cipherSuites: [PairingCipherSuite]
    /// The most phones the accessory keeps pairing keys for. One more is refused (the user
    /// removes one, or factory resets) rather than silently evicting an older pairing.
    public var maxPairedDevices: Int

    public static let maxPairedDevicesRange: ClosedRange<Int> = 1...64

    public init(
        bootstrappingMethods: [BootstrappingMethod] = [.pinDisplay],
        pin: PinPolicy = PinPolicy(),
        cache: PairingCache = PairingCache(),
        cipherSuites: [PairingCipherSuite] = [.pasn128],
        maxPairedDevices: Int = 8
    ) {
        self.bootstrappingMethods = bootstrappingMethods
        self.pin = pin
        self.cache = cache
        self.cipherSuites = cipherSuites
        self.maxPairedDevices = maxPairedDevices
    }

    /// The bootstrapping-method bitmap the accessory advertises.
    public var bootstrappingBitmap: UInt16 { bootstrappingMethods.reduce(0) { $0 | $1.bit } }
}
