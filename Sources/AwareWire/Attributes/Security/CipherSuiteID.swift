/// A NAN Cipher Suite ID (CSID) (nan-wire-reference.md 2.13; hostap
/// `enum nan_cipher_suite_id` "Table 121", ESP-IDF agrees). An open set: unknown IDs are
/// kept and named "Reserved".
public struct CipherSuiteID: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let none = Self(0)
    /// CCMP-128, SHA-256: NDP with PMK or passphrase.
    public static let ncsSK128 = Self(1)
    /// GCMP-256, SHA-384: NDP with PMK or passphrase.
    public static let ncsSK256 = Self(2)
    public static let ncsPK2WDH128 = Self(3)
    public static let ncsPK2WDH256 = Self(4)
    public static let ncsGTKCCMP128 = Self(5)
    public static let ncsGTKGCMP256 = Self(6)
    /// Pairing (PASN, group 19, CCMP-128) and NDP with paired peers.
    public static let ncsPKPASN128 = Self(7)
    /// Pairing (PASN, group 20, GCMP-256) and NDP with paired peers.
    public static let ncsPKPASN256 = Self(8)

    public var name: String {
        switch rawValue {
        case 0: "None"
        case 1: "NCS-SK-128"
        case 2: "NCS-SK-256"
        case 3: "NCS-PK-2WDH-128"
        case 4: "NCS-PK-2WDH-256"
        case 5: "NCS-GTK-CCMP-128"
        case 6: "NCS-GTK-GCMP-256"
        case 7: "NCS-PK-PASN-128"
        case 8: "NCS-PK-PASN-256"
        default: "Reserved"
        }
    }

    /// The Key MIC length of the suite's key descriptors: 16 for the -128 suites, 24 for
    /// the -256 suites (nan-wire-reference.md 2.15; hostap `NAN_CS_IS_128/256`); nil for
    /// suites that do not protect an NDP handshake.
    public var keyMICLayout: KeyMICLayout? {
        switch rawValue {
        case 1, 7: .octets16
        case 2, 8: .octets24
        default: nil
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(rawValue), name) }
}
