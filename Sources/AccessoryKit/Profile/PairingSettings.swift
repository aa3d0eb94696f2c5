/// How the accessory pairs: the phone asks for PIN keypad entry, so the accessory displays a PIN
/// (apple-peer-model.md 3), runs PASN and caches the keys to be recognised later.
public struct PairingSettings: Codable, Hashable, Sendable {
    public var bootstrappingMethods: [BootstrappingMethod]
    public var pin: PinPolicy
    public var cache: PairingCache
    public var cipherSuites: [PairingCipherSuite]
    /// The most phones the accessory keeps pairing keys for. What one more phone gets is
    /// `whenFull`'s to say.
    public var maxPairedDevices: Int
    /// What a new phone gets when `maxPairedDevices` pairings are kept already.
    public var whenFull: WhenFull

    public static let maxPairedDevicesRange: ClosedRange<Int> = 1...64

    public init(
        bootstrappingMethods: [BootstrappingMethod] = [.pinDisplay],
        pin: PinPolicy = PinPolicy(),
        cache: PairingCache = PairingCache(),
        cipherSuites: [PairingCipherSuite] = [.pasn128],
        maxPairedDevices: Int = 8,
        whenFull: WhenFull = .refuse
    ) {
        self.bootstrappingMethods = bootstrappingMethods
        self.pin = pin
        self.cache = cache
        self.cipherSuites = cipherSuites
        self.maxPairedDevices = maxPairedDevices
        self.whenFull = whenFull
    }

    /// The bootstrapping-method bitmap the accessory advertises.
    public var bootstrappingBitmap: UInt16 { bootstrappingMethods.reduce(0) { $0 | $1.bit } }
}

// MARK: - WhenFull

extension PairingSettings {
    /// What a new phone gets when the accessory keeps `maxPairedDevices` pairings already. Both
    /// are what real accessories do (docs/reference/profile-reference.md, `pairing.whenFull`); a
    /// phone that is paired already pairs again in place of its own record either way.
    public enum WhenFull: String, Codable, Hashable, Sendable, CaseIterable {
        /// Refused at bootstrapping with RESOURCE_LIMITATION (nan-wire-reference.md 2.11), no PIN
        /// shown, until the user removes a pairing or factory resets the accessory.
        case refuse
        /// Paired; once its pairing is stored, the oldest pairing (the earliest `pairedAt`) is
        /// forgotten, so that phone's cached keys resolve nothing any more.
        case replaceOldest
    }
}

// MARK: - BootstrappingMethod

/// NAN pairing bootstrapping methods, with their bits in the bootstrapping-method bitmap
/// (apple-peer-model.md 3, after Wi-Fi Aware 4.0 9.5.21.7).
public enum BootstrappingMethod: String, Codable, Hashable, Sendable, CaseIterable {
    case opportunistic
    case pinDisplay
    case passphraseDisplay
    case qrDisplay
    case nfcTag
    case pinKeypad
    case passphraseKeypad
    case qrScan
    case nfcReader

    public var bit: UInt16 {
        switch self {
        case .opportunistic: return 0x0001
        case .pinDisplay: return 0x0002
        case .passphraseDisplay: return 0x0004
        case .qrDisplay: return 0x0008
        case .nfcTag: return 0x0010
        case .pinKeypad: return 0x0020
        case .passphraseKeypad: return 0x0040
        case .qrScan: return 0x0080
        case .nfcReader: return 0x0100
        }
    }
}

// MARK: - PinPolicy

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

// MARK: - PairingCache

/// What the accessory keeps after pairing so the phone can reconnect without a PIN: the NPK for
/// pairing verification and the peer's NIK to resolve its NIRA (apple-peer-model.md 4, 5.6).
public struct PairingCache: Codable, Hashable, Sendable {
    public var npk: Bool
    public var nik: Bool
    /// How long a cached NIK stays valid; 0 keeps it until the pairing is removed.
    public var nikLifetimeSeconds: Int

    public init(npk: Bool = true, nik: Bool = true, nikLifetimeSeconds: Int = 0) {
        self.npk = npk
        self.nik = nik
        self.nikLifetimeSeconds = nikLifetimeSeconds
    }
}

// MARK: - PairingCipherSuite

/// The NAN cipher suites used with paired peers (nan-wire-reference.md 2.13, CSIDs 7 and 8).
public enum PairingCipherSuite: String, Codable, Hashable, Sendable, CaseIterable {
    case pasn128 = "NCS-PK-PASN-128"
    case pasn256 = "NCS-PK-PASN-256"

    /// The Cipher Suite ID in the CSIA.
    public var csid: UInt8 {
        switch self {
        case .pasn128: return 7
        case .pasn256: return 8
        }
    }
}
