import AwareCore

/// A cipher or AKM suite selector: OUI (3) | Suite Type (1) (IEEE 802.11-2020 9.4.2.24.2,
/// 9.4.2.24.3). The RSNE carries them in nan-wire-reference.md 3.4.1.
public struct SuiteSelector: Hashable, Sendable, WireCodable, WireDescribable, CustomStringConvertible {
    public var oui: [UInt8]
    public var suiteType: UInt8

    /// `oui` must be 3 octets; other lengths are a programming error.
    public init(oui: [UInt8], suiteType: UInt8) {
        precondition(oui.count == 3, "an OUI is 3 octets")
        self.oui = oui
        self.suiteType = suiteType
    }

    /// 00-0F-AC, the IEEE 802.11 OUI.
    public static let ieee80211OUI: [UInt8] = [0x00, 0x0F, 0xAC]

    public static func ieee80211(_ suiteType: UInt8) -> SuiteSelector {
        SuiteSelector(oui: ieee80211OUI, suiteType: suiteType)
    }

    /// 00-0F-AC:4 CCMP-128.
    public static let ccmp128 = ieee80211(4)
    /// 00-0F-AC:9 GCMP-256.
    public static let gcmp256 = ieee80211(9)
    /// 00-0F-AC:7 "group addressed traffic not allowed", NAN's group data and group
    /// management cipher (nan-wire-reference.md 3.4.1).
    public static let groupAddressedTrafficNotAllowed = ieee80211(7)
    /// AKM 00-0F-AC:8 SAE.
    public static let akmSAE = ieee80211(8)
    /// AKM 00-0F-AC:21 PASN.
    public static let akmPASN = ieee80211(21)

    public init(from reader: inout WireReader) throws(WireError) {
        oui = try reader.readBytes(3, "OUI")
        suiteType = try reader.readUInt8("Suite Type")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(oui)
        writer.write(suiteType)
    }

    public var description: String {
        oui.map { HexString.byte($0) }.joined(separator: "-") + ":\(suiteType)"
    }

    /// The name of this selector used as a cipher suite (IEEE 802.11-2020 Table 9-149).
    public var cipherName: String {
        guard oui == Self.ieee80211OUI else { return "Vendor \(description)" }
        return switch suiteType {
        case 0: "Use group cipher suite"
        case 1: "WEP-40"
        case 2: "TKIP"
        case 4: "CCMP-128"
        case 5: "WEP-104"
        case 6: "BIP-CMAC-128"
        case 7: "Group addressed traffic not allowed"
        case 8: "GCMP-128"
        case 9: "GCMP-256"
        case 10: "CCMP-256"
        case 11: "BIP-GMAC-128"
        case 12: "BIP-GMAC-256"
        case 13: "BIP-CMAC-256"
        default: "Reserved \(description)"
        }
    }

    /// The name of this selector used as an AKM suite (IEEE 802.11-2020 Table 9-151).
    public var akmName: String {
        guard oui == Self.ieee80211OUI else { return "Vendor \(description)" }
        return switch suiteType {
        case 1: "802.1X"
        case 2: "PSK"
        case 3: "FT over 802.1X"
        case 4: "FT PSK"
        case 5: "802.1X SHA-256"
        case 6: "PSK SHA-256"
        case 8: "SAE"
        case 9: "FT over SAE"
        case 18: "OWE"
        case 21: "PASN"
        case 24: "SAE-EXT-KEY"
        default: "Other \(description)"
        }
    }

    /// Without context a selector is just its two fields; RSNE fields name it as a cipher
    /// or an AKM.
    public var decodedFields: [DecodedField] {
        [
            DecodedField("oui", "OUI", .bytes(oui)),
            DecodedField("suiteType", "Suite Type", .unsigned(UInt64(suiteType))),
        ]
    }

    func decoded(cipher: Bool) -> DecodedValue {
        .named(UInt64(suiteType), cipher ? cipherName : akmName)
    }

    func describe(cipher: Bool) -> DecodedValue {
        .fields([
            DecodedField("oui", "OUI", .bytes(oui)),
            DecodedField("suiteType", "Suite Type", decoded(cipher: cipher)),
        ])
    }
}
