import AwareCore

/// The RSN element (ID 48; IEEE 802.11-2020 9.4.2.24), as PASN frames carry it
/// (nan-wire-reference.md 3.4.1):
/// `Version (2) | Group Data Cipher (4) | Pairwise Count (2) + suites | AKM Count (2) + suites
/// | RSN Capabilities (2) | PMKID Count (2) + PMKIDs (16 each) | Group Management Cipher (4)`.
///
/// Every field after Version may be left off from the end, so each is optional here: nil
/// means "the element ended before this field", and a value is written only when all the
/// fields before it are present.
public struct RSNElement: ElementBody {
    public static let elementID: UInt8 = 48
    public static let structureName = "RSN element"

    public var version: UInt16
    public var groupDataCipherSuite: SuiteSelector?
    public var pairwiseCipherSuites: [SuiteSelector]?
    public var akmSuites: [SuiteSelector]?
    public var rsnCapabilities: UInt16?
    /// The PMKID list; an empty list still writes a PMKID Count of 0 (hostap's setup
    /// frame 1 does, see the hostap-session-A README, 11).
    public var pmkids: [[UInt8]]?
    public var groupManagementCipherSuite: SuiteSelector?

    public init(
        version: UInt16 = 1,
        groupDataCipherSuite: SuiteSelector? = nil,
        pairwiseCipherSuites: [SuiteSelector]? = nil,
        akmSuites: [SuiteSelector]? = nil,
        rsnCapabilities: UInt16? = nil,
        pmkids: [[UInt8]]? = nil,
        groupManagementCipherSuite: SuiteSelector? = nil
    ) {
        self.version = version
        self.groupDataCipherSuite = groupDataCipherSuite
        self.pairwiseCipherSuites = pairwiseCipherSuites
        self.akmSuites = akmSuites
        self.rsnCapabilities = rsnCapabilities
        self.pmkids = pmkids
        self.groupManagementCipherSuite = groupManagementCipherSuite
    }

    /// The RSNE hostap builds for NAN pairing (`wpa_pasn_add_rsne`, nan-wire-reference.md 3.4.1).
    public static func nanPairing(akm: SuiteSelector, pairwise: SuiteSelector, pmkid: [UInt8]?) -> RSNElement {
        RSNElement(
            version: 1,
            groupDataCipherSuite: .groupAddressedTrafficNotAllowed,
            pairwiseCipherSuites: [pairwise],
            akmSuites: [akm],
            rsnCapabilities: 0x00C0,
            pmkids: pmkid.map { [$0] } ?? [],
            groupManagementCipherSuite: .groupAddressedTrafficNotAllowed
        )
    }

    /// Management Frame Protection Required (b6) of RSN Capabilities.
    public var mfpRequired: Bool { (rsnCapabilities ?? 0) & 0x0040 != 0 }
    /// Management Frame Protection Capable (b7) of RSN Capabilities.
    public var mfpCapable: Bool { (rsnCapabilities ?? 0) & 0x0080 != 0 }

    /// Parses the information octets (after Element ID and Length).
    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        version = try reader.readUInt16LE("Version")
        groupDataCipherSuite = nil
        pairwiseCipherSuites = nil
        akmSuites = nil
        rsnCapabilities = nil
        pmkids = nil
        groupManagementCipherSuite = nil
        if reader.isAtEnd { return }
        groupDataCipherSuite = try SuiteSelector(from: &reader)
        if reader.isAtEnd { return }
        pairwiseCipherSuites = try Self.readSuites(
            from: &reader,
            count: "Pairwise Cipher Suite Count",
            list: "Pairwise Cipher Suite List"
        )
        if reader.isAtEnd { return }
        akmSuites = try Self.readSuites(from: &reader, count: "AKM Suite Count", list: "AKM Suite List")
        if reader.isAtEnd { return }
        rsnCapabilities = try reader.readUInt16LE("RSN Capabilities")
        if reader.isAtEnd { return }
        let count = Int(try reader.readUInt16LE("PMKID Count"))
        try reader.require(count * 16, field: "PMKID List")
        var list: [[UInt8]] = []
        for _ in 0..<count { list.append(try reader.readBytes(16, "PMKID")) }
        pmkids = list
        if reader.isAtEnd { return }
        groupManagementCipherSuite = try SuiteSelector(from: &reader)
        try reader.expectEnd()
    }

    private static func readSuites(
        from reader: inout WireReader,
        count countField: String,
        list listField: String
    ) throws(WireError) -> [SuiteSelector] {
        let count = Int(try reader.readUInt16LE(countField))
        try reader.require(count * 4, field: listField)
        var suites: [SuiteSelector] = []
        for _ in 0..<count { suites.append(try SuiteSelector(from: &reader)) }
        return suites
    }

    /// The information octets.
    public var information: [UInt8] {
        var writer = WireWriter()
        writer.writeUInt16LE(version)
        guard let groupDataCipherSuite else { return writer.bytes }
        groupDataCipherSuite.write(to: &writer)
        guard let pairwiseCipherSuites else { return writer.bytes }
        Self.writeSuites(pairwiseCipherSuites, to: &writer)
        guard let akmSuites else { return writer.bytes }
        Self.writeSuites(akmSuites, to: &writer)
        guard let rsnCapabilities else { return writer.bytes }
        writer.writeUInt16LE(rsnCapabilities)
        guard let pmkids else { return writer.bytes }
        writer.writeUInt16LE(UInt16(truncatingIfNeeded: pmkids.count))
        for pmkid in pmkids { writer.write(pmkid) }
        guard let groupManagementCipherSuite else { return writer.bytes }
        groupManagementCipherSuite.write(to: &writer)
        return writer.bytes
    }

    private static func writeSuites(_ suites: [SuiteSelector], to writer: inout WireWriter) {
        writer.writeUInt16LE(UInt16(truncatingIfNeeded: suites.count))
        for suite in suites { suite.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        var fields = [DecodedField("version", "Version", .unsigned(UInt64(version)))]
        if let groupDataCipherSuite {
            fields.append(
                DecodedField(
                    "groupDataCipherSuite",
                    "Group Data Cipher Suite",
                    groupDataCipherSuite.describe(cipher: true)
                )
            )
        }
        if let pairwiseCipherSuites {
            fields.append(
                DecodedField(
                    "pairwiseCipherSuites",
                    "Pairwise Cipher Suites",
                    .list(pairwiseCipherSuites.map { $0.describe(cipher: true) })
                )
            )
        }
        if let akmSuites {
            fields.append(DecodedField("akmSuites", "AKM Suites", .list(akmSuites.map { $0.describe(cipher: false) })))
        }
        if let rsnCapabilities {
            fields.append(
                DecodedField("rsnCapabilities", "RSN Capabilities", .bits(UInt64(rsnCapabilities), digits: 4))
            )
            fields.append(DecodedField("mfpRequired", "MFP Required", .flag(mfpRequired)))
            fields.append(DecodedField("mfpCapable", "MFP Capable", .flag(mfpCapable)))
        }
        if let pmkids {
            fields.append(DecodedField("pmkidCount", "PMKID Count", .unsigned(UInt64(pmkids.count))))
            fields.append(DecodedField("pmkids", "PMKIDs", .list(pmkids.map { .bytes($0) })))
        }
        if let groupManagementCipherSuite {
            fields.append(
                DecodedField(
                    "groupManagementCipherSuite",
                    "Group Management Cipher Suite",
                    groupManagementCipherSuite.describe(cipher: true)
                )
            )
        }
        return fields
    }
}

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
