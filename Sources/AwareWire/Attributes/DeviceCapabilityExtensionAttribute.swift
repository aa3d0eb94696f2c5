/// Device Capability Extension attribute (DCEA, 0x2A; nan-wire-reference.md 2.16).
///
/// ```
/// Capability Info (2, LE): b0 6 GHz Regulatory Info Present, b1-3 6 GHz Regulatory Info,
///                          b4-7 reserved, b8 Pairing Setup Enabled, b9 NPK/NIK Caching Enabled
/// ```
/// The reference defines two octets; hostap reads any length >= 2. Octets after the two are
/// not guessed at: they are kept in ``extra`` and written back, so a longer DCEA from a newer
/// peer parses and round-trips. Fewer than two octets is an error.
public struct DeviceCapabilityExtensionAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.deviceCapabilityExtension

    public var capabilityInfo: UInt16
    /// Octets after Capability Info, undecoded.
    public var extra: [UInt8]

    public init(capabilityInfo: UInt16, extra: [UInt8] = []) {
        self.capabilityInfo = capabilityInfo
        self.extra = extra
    }

    /// Capability Info with the pairing bits set as given and no 6 GHz regulatory info.
    public init(pairingSetupEnabled: Bool, npkNIKCachingEnabled: Bool) {
        self.init(capabilityInfo: (pairingSetupEnabled ? 0x0100 : 0) | (npkNIKCachingEnabled ? 0x0200 : 0))
    }

    public var sixGHzRegulatoryInfoPresent: Bool { capabilityInfo & 0x0001 != 0 }
    /// 0 Indoor AP, 1 Standard Power AP, 2 Very Low Power AP, 3 Indoor Enabled AP, 4 Indoor SP AP.
    public var sixGHzRegulatoryInfo: UInt8 { UInt8(truncatingIfNeeded: (capabilityInfo >> 1) & 0x07) }
    public var pairingSetupEnabled: Bool { capabilityInfo & 0x0100 != 0 }
    public var npkNIKCachingEnabled: Bool { capabilityInfo & 0x0200 != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        capabilityInfo = try reader.readUInt16LE("Capability Info")
        extra = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(capabilityInfo)
        writer.write(extra)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("capabilityInfo", "Capability Info", .bits(UInt64(capabilityInfo), digits: 4)),
            DecodedField(
                "sixGHzRegulatoryInfoPresent",
                "6 GHz Regulatory Info Present",
                .flag(sixGHzRegulatoryInfoPresent)
            ),
            DecodedField(
                "sixGHzRegulatoryInfo",
                "6 GHz Regulatory Info",
                .named(UInt64(sixGHzRegulatoryInfo), Self.regulatoryInfoName(sixGHzRegulatoryInfo))
            ),
            DecodedField("pairingSetupEnabled", "Pairing Setup Enabled", .flag(pairingSetupEnabled)),
            DecodedField("npkNIKCachingEnabled", "NPK/NIK Caching Enabled", .flag(npkNIKCachingEnabled)),
        ]
        if !extra.isEmpty {
            fields.append(DecodedField("raw", "Undecoded Octets", .bytes(extra)))
        }
        return fields
    }

    private static func regulatoryInfoName(_ value: UInt8) -> String {
        switch value {
        case 0: "Indoor AP"
        case 1: "Standard Power AP"
        case 2: "Very Low Power AP"
        case 3: "Indoor Enabled AP"
        case 4: "Indoor Standard Power AP"
        default: "Reserved"
        }
    }
}
