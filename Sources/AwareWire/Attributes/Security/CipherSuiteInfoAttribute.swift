/// Cipher Suite Information attribute (CSIA, 0x22) (nan-wire-reference.md 2.13):
/// Capabilities (1) | Cipher Suite List: n x {CSID (1) | Instance ID (1)}.
/// An odd octet after the capabilities is half an entry and an error.
public struct CipherSuiteInfoAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.cipherSuiteInfo

    public var capabilities: CipherSuiteCapabilities
    public var cipherSuites: [CipherSuite]

    public init(capabilities: CipherSuiteCapabilities, cipherSuites: [CipherSuite]) {
        self.capabilities = capabilities
        self.cipherSuites = cipherSuites
    }

    public init(from reader: inout WireReader) throws(WireError) {
        capabilities = CipherSuiteCapabilities(rawValue: try reader.readUInt8("Capabilities"))
        cipherSuites = []
        while !reader.isAtEnd { cipherSuites.append(try CipherSuite(from: &reader)) }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(capabilities.rawValue)
        for suite in cipherSuites { suite.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        capabilities.decodedFields + [
            DecodedField("cipherSuites", "Cipher Suite List", .list(cipherSuites.map { .fields($0.decodedFields) }))
        ]
    }
}

/// One entry of a Cipher Suite List (nan-wire-reference.md 2.13):
/// CSID (1) | Instance ID / Publish ID (1).
public struct CipherSuite: Hashable, Sendable, WireCodable, WireDescribable {
    public var csid: CipherSuiteID
    public var instanceID: UInt8

    public init(csid: CipherSuiteID, instanceID: UInt8) {
        self.csid = csid
        self.instanceID = instanceID
    }

    public init(from reader: inout WireReader) throws(WireError) {
        try reader.require(2, field: "Cipher Suite")
        csid = CipherSuiteID(try reader.readUInt8("CSID"))
        instanceID = try reader.readUInt8("Instance ID")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(csid.rawValue)
        writer.write(instanceID)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("csid", "Cipher Suite ID", csid.decodedValue),
            DecodedField("instanceID", "Instance ID", .unsigned(UInt64(instanceID))),
        ]
    }
}

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
