/// The Key Information field (2, **big-endian**) of an IEEE 802.11 RSNA key descriptor
/// (nan-wire-reference.md 2.15, hostap wpa_common.h): b0-2 Key Descriptor Version
/// (0 = AKM-defined), b3 Key Type (1 = pairwise), b4-5 Key Index, b6 Install, b7 Key Ack,
/// b8 Key MIC, b9 Secure, b10 Error, b11 Request, b12 Encrypted Key Data, b13-15 reserved.
///
/// NAN values seen in hostap: NIK delivery 0x1088; NDP m1 0x0088, m2 0x0108, m3 0x03C8,
/// m4 0x0348 (+0x1000 with encrypted key data) (3.6, 4.2).
public struct EAPOLKeyInformation: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let pairwise = Self(rawValue: 1 << 3)
    public static let install = Self(rawValue: 1 << 6)
    public static let keyAck = Self(rawValue: 1 << 7)
    public static let keyMIC = Self(rawValue: 1 << 8)
    public static let secure = Self(rawValue: 1 << 9)
    public static let error = Self(rawValue: 1 << 10)
    public static let request = Self(rawValue: 1 << 11)
    public static let encryptedKeyData = Self(rawValue: 1 << 12)

    /// b0-2; 0 = AKM-defined, which NAN requires.
    public var descriptorVersion: UInt8 {
        get { UInt8(truncatingIfNeeded: rawValue) & 0x07 }
        set { rawValue = (rawValue & ~0x0007) | UInt16(newValue & 0x07) }
    }

    /// b4-5.
    public var keyIndex: UInt8 {
        get { UInt8(truncatingIfNeeded: rawValue >> 4) & 0x03 }
        set { rawValue = (rawValue & ~0x0030) | UInt16(newValue & 0x03) << 4 }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("keyInformation", "Key Information", .bits(UInt64(rawValue), digits: 4)),
            DecodedField(
                "keyDescriptorVersion",
                "Key Descriptor Version",
                .named(UInt64(descriptorVersion), descriptorVersion == 0 ? "AKM-defined" : "Other")
            ),
            DecodedField(
                "keyType",
                "Key Type",
                .named(contains(.pairwise) ? 1 : 0, contains(.pairwise) ? "Pairwise" : "Group")
            ),
            DecodedField("keyIndex", "Key Index", .unsigned(UInt64(keyIndex))),
            DecodedField("install", "Install", .flag(contains(.install))),
            DecodedField("keyAck", "Key Ack", .flag(contains(.keyAck))),
            DecodedField("keyMICBit", "Key MIC (bit 8)", .flag(contains(.keyMIC))),
            DecodedField("secure", "Secure", .flag(contains(.secure))),
            DecodedField("error", "Error", .flag(contains(.error))),
            DecodedField("request", "Request", .flag(contains(.request))),
            DecodedField("encryptedKeyData", "Encrypted Key Data", .flag(contains(.encryptedKeyData))),
        ]
    }
}
