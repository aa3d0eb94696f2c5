/// The Capabilities octet of the Cipher Suite Information attribute
/// (nan-wire-reference.md 2.13; hostap `NAN_CS_INFO_CAPA_*`):
/// b0 ND-TKSA/NM-TKSA replay counters (0 = 4, 1 = 16), b1-2 GTK support (0 none,
/// 1 GTKSA+IGTKSA without BIGTKSA, 2 GTKSA+IGTKSA+BIGTKSA, 3 reserved), b3 GTKSA replay
/// counters (0 = 4, 1 = 16), b4 IGTKSA/BIGTKSA cipher (0 BIP-CMAC-128, 1 BIP-GMAC-256),
/// b5-7 reserved. The raw octet is the value, so reserved bits survive.
public struct CipherSuiteCapabilities: Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// - Parameter gtkSupport: 0...3; higher bits are dropped.
    public init(
        sixteenTKSAReplayCounters: Bool = false,
        gtkSupport: UInt8 = 0,
        sixteenGTKSAReplayCounters: Bool = false,
        bipGMAC256: Bool = false
    ) {
        rawValue =
            (sixteenTKSAReplayCounters ? 0x01 : 0) | (gtkSupport & 0x03) << 1
            | (sixteenGTKSAReplayCounters ? 0x08 : 0) | (bipGMAC256 ? 0x10 : 0)
    }

    /// b0: the number of ND-TKSA / NM-TKSA replay counters, 4 or 16.
    public var tksaReplayCounters: Int { rawValue & 0x01 != 0 ? 16 : 4 }
    /// b1-2.
    public var gtkSupport: UInt8 { (rawValue >> 1) & 0x03 }
    /// b3: the number of GTKSA replay counters, 4 or 16.
    public var gtksaReplayCounters: Int { rawValue & 0x08 != 0 ? 16 : 4 }
    /// b4: IGTKSA/BIGTKSA use BIP-GMAC-256 (else BIP-CMAC-128).
    public var usesBIPGMAC256: Bool { rawValue & 0x10 != 0 }

    public var gtkSupportName: String {
        switch gtkSupport {
        case 0: "None"
        case 1: "GTKSA and IGTKSA, no BIGTKSA"
        case 2: "GTKSA, IGTKSA and BIGTKSA"
        default: "Reserved"
        }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("capabilities", "Capabilities", .bits(UInt64(rawValue), digits: 2)),
            DecodedField(
                "tksaReplayCounters",
                "ND-TKSA/NM-TKSA Replay Counters",
                .unsigned(UInt64(tksaReplayCounters))
            ),
            DecodedField("gtkSupport", "GTK Support", .named(UInt64(gtkSupport), gtkSupportName)),
            DecodedField("gtksaReplayCounters", "GTKSA Replay Counters", .unsigned(UInt64(gtksaReplayCounters))),
            DecodedField(
                "igtkCipher",
                "IGTKSA/BIGTKSA Cipher",
                .named(usesBIPGMAC256 ? 1 : 0, usesBIPGMAC256 ? "BIP-GMAC-256" : "BIP-CMAC-128")
            ),
        ]
    }
}
