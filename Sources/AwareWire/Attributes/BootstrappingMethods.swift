/// The NPBA Pairing Bootstrapping Method bitmap (2 octets, LE; nan-wire-reference.md 2.18, hostap
/// `enum nan_pairing_bootstrapping_method`, Android `AwarePairingConfig`, ESP-IDF
/// `WIFI_NAN_BOOTSTRAP_*`). All 16 bits are named, reserved ones included.
public struct BootstrappingMethods: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let opportunistic = Self(rawValue: 1 << 0)
    public static let pinCodeDisplay = Self(rawValue: 1 << 1)
    public static let passphraseDisplay = Self(rawValue: 1 << 2)
    public static let qrCodeDisplay = Self(rawValue: 1 << 3)
    public static let nfcTag = Self(rawValue: 1 << 4)
    public static let pinCodeKeypad = Self(rawValue: 1 << 5)
    public static let passphraseKeypad = Self(rawValue: 1 << 6)
    public static let qrCodeScan = Self(rawValue: 1 << 7)
    public static let nfcReader = Self(rawValue: 1 << 8)
    public static let reservedBit9 = Self(rawValue: 1 << 9)
    public static let reservedBit10 = Self(rawValue: 1 << 10)
    public static let reservedBit11 = Self(rawValue: 1 << 11)
    public static let reservedBit12 = Self(rawValue: 1 << 12)
    public static let reservedBit13 = Self(rawValue: 1 << 13)
    public static let serviceManaged = Self(rawValue: 1 << 14)
    public static let handshakesSkipped = Self(rawValue: 1 << 15)

    /// Bits 9-13.
    public static let reserved = Self(rawValue: 0x3E00)

    /// Every bit with its JSON key and its name in the reference's table, in bit order.
    public static let named: [(method: BootstrappingMethods, key: String, name: String)] = [
        (.opportunistic, "opportunistic", "Opportunistic bootstrapping"),
        (.pinCodeDisplay, "pinCodeDisplay", "PIN code (display)"),
        (.passphraseDisplay, "passphraseDisplay", "Passphrase (display)"),
        (.qrCodeDisplay, "qrCodeDisplay", "QR code (display)"),
        (.nfcTag, "nfcTag", "NFC tag"),
        (.pinCodeKeypad, "pinCodeKeypad", "PIN code only (keypad)"),
        (.passphraseKeypad, "passphraseKeypad", "Passphrase (keypad)"),
        (.qrCodeScan, "qrCodeScan", "QR code (scan)"),
        (.nfcReader, "nfcReader", "NFC reader"),
        (.reservedBit9, "reservedBit9", "Reserved (bit 9)"),
        (.reservedBit10, "reservedBit10", "Reserved (bit 10)"),
        (.reservedBit11, "reservedBit11", "Reserved (bit 11)"),
        (.reservedBit12, "reservedBit12", "Reserved (bit 12)"),
        (.reservedBit13, "reservedBit13", "Reserved (bit 13)"),
        (.serviceManaged, "serviceManaged", "Service managed bootstrapping"),
        (.handshakesSkipped, "handshakesSkipped", "Bootstrapping handshakes skipped"),
    ]

    /// The methods the peer must use to pair with a device that offers these: each "display"
    /// method maps to its "keypad"/"scan" counterpart and back (PIN display <-> PIN keypad,
    /// passphrase display <-> passphrase keypad, QR display <-> QR scan, NFC tag <-> NFC reader),
    /// as in hostap's test (publisher 0x0004, subscriber 0x0040; 3.1). Opportunistic, service
    /// managed, handshakes skipped and the reserved bits need no counterpart and map to themselves,
    /// so `complement` is its own inverse.
    public var complement: BootstrappingMethods {
        let pairs: [(BootstrappingMethods, BootstrappingMethods)] = [
            (.pinCodeDisplay, .pinCodeKeypad),
            (.passphraseDisplay, .passphraseKeypad),
            (.qrCodeDisplay, .qrCodeScan),
            (.nfcTag, .nfcReader),
        ]
        var result = self
        for (display, input) in pairs {
            result.remove(display)
            result.remove(input)
            if contains(display) { result.insert(input) }
            if contains(input) { result.insert(display) }
        }
        return result
    }

    /// One `.flag` per bit, for ``DecodedField`` lists.
    public var decodedFlags: [DecodedField] {
        Self.named.map { DecodedField($0.key, $0.name, .flag(contains($0.method))) }
    }
}
