/// Device Capability attribute (0x0F, length 9; nan-wire-reference.md 2.6, hostap
/// `struct nan_device_capa`).
///
/// ```
/// Map ID (1) | Committed DW Info (2, LE) | Supported Bands (1) | Operation Mode (1) |
/// Number of Antennas (1) | Max Channel Switch Time (2, LE, µs) | Capabilities (1)
/// ```
/// Every field is kept raw, reserved bits included; the sub-fields are computed from them.
public struct DeviceCapabilityAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.deviceCapability

    /// b0: 0 = applies to all maps, 1 = only the map in b1-b4. hostap always sends 0.
    public var mapID: UInt8
    /// b0-2 2.4 GHz DW, b3-5 5 GHz DW (wake every 2^(n-1) DWs, 0 = none), b6-9 2.4 GHz DW
    /// overwrite (map ID), b10-13 5 GHz DW overwrite.
    public var committedDWInfo: UInt16
    /// b0 TVWS, b1 Sub-1 GHz, b2 2.4 GHz, b3 3.6 GHz, b4 4.9/5 GHz, b5 60 GHz, b6 45 GHz, b7 6 GHz.
    public var supportedBands: UInt8
    /// b0 PHY VHT (0 = HT), b1 HE/VHT 80+80, b2 HE/VHT 160, b3 reserved (paging NDL), b4 HE.
    public var operationMode: UInt8
    /// b0-3 TX, b4-7 RX antennas (0 = unknown).
    public var numberOfAntennas: UInt8
    /// Microseconds.
    public var maxChannelSwitchTime: UInt16
    /// b0 DFS Master, b1 Extended Key ID, b2 Simultaneous NDP data reception, b3 NDPE attribute
    /// support, b4 S3 capable.
    public var capabilities: UInt8

    public init(
        mapID: UInt8 = 0,
        committedDWInfo: UInt16,
        supportedBands: UInt8,
        operationMode: UInt8,
        numberOfAntennas: UInt8,
        maxChannelSwitchTime: UInt16,
        capabilities: UInt8
    ) {
        self.mapID = mapID
        self.committedDWInfo = committedDWInfo
        self.supportedBands = supportedBands
        self.operationMode = operationMode
        self.numberOfAntennas = numberOfAntennas
        self.maxChannelSwitchTime = maxChannelSwitchTime
        self.capabilities = capabilities
    }

    public var appliesToSpecificMap: Bool { mapID & 0x01 != 0 }
    public var specificMapID: UInt8 { (mapID >> 1) & 0x0F }
    public var committedDW24GHz: UInt8 { UInt8(truncatingIfNeeded: committedDWInfo & 0x07) }
    public var committedDW5GHz: UInt8 { UInt8(truncatingIfNeeded: (committedDWInfo >> 3) & 0x07) }
    public var committedDW24GHzOverwrite: UInt8 { UInt8(truncatingIfNeeded: (committedDWInfo >> 6) & 0x0F) }
    public var committedDW5GHzOverwrite: UInt8 { UInt8(truncatingIfNeeded: (committedDWInfo >> 10) & 0x0F) }
    public var transmitAntennas: UInt8 { numberOfAntennas & 0x0F }
    public var receiveAntennas: UInt8 { numberOfAntennas >> 4 }
    /// Capabilities bit 3: hostap sends NDPE instead of NDP when the peer sets it (2.6).
    public var ndpeAttributeSupported: Bool { capabilities & 0x08 != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        mapID = try reader.readUInt8("Map ID")
        committedDWInfo = try reader.readUInt16LE("Committed DW Info")
        supportedBands = try reader.readUInt8("Supported Bands")
        operationMode = try reader.readUInt8("Operation Mode")
        numberOfAntennas = try reader.readUInt8("Number of Antennas")
        maxChannelSwitchTime = try reader.readUInt16LE("Max Channel Switch Time")
        capabilities = try reader.readUInt8("Capabilities")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(mapID)
        writer.writeUInt16LE(committedDWInfo)
        writer.write(supportedBands)
        writer.write(operationMode)
        writer.write(numberOfAntennas)
        writer.writeUInt16LE(maxChannelSwitchTime)
        writer.write(capabilities)
    }

    public var decodedFields: [DecodedField] {
        func flag(_ key: String, _ label: String, _ value: UInt8, _ bit: UInt8) -> DecodedField {
            DecodedField(key, label, .flag(value & (1 << bit) != 0))
        }
        func number(_ key: String, _ label: String, _ value: UInt8) -> DecodedField {
            DecodedField(key, label, .unsigned(UInt64(value)))
        }
        return [
            DecodedField("mapID", "Map ID", .bits(UInt64(mapID), digits: 2)),
            flag("appliesToSpecificMap", "Applies to Specific Map", mapID, 0),
            number("specificMapID", "Specific Map ID", specificMapID),
            DecodedField("committedDWInfo", "Committed DW Info", .bits(UInt64(committedDWInfo), digits: 4)),
            number("committedDW24GHz", "2.4 GHz DW", committedDW24GHz),
            number("committedDW5GHz", "5 GHz DW", committedDW5GHz),
            number("committedDW24GHzOverwrite", "2.4 GHz DW Overwrite", committedDW24GHzOverwrite),
            number("committedDW5GHzOverwrite", "5 GHz DW Overwrite", committedDW5GHzOverwrite),
            DecodedField("supportedBands", "Supported Bands", .bits(UInt64(supportedBands), digits: 2)),
            flag("bandTVWS", "TVWS (reserved)", supportedBands, 0),
            flag("bandSub1GHz", "Sub-1 GHz", supportedBands, 1),
            flag("band24GHz", "2.4 GHz", supportedBands, 2),
            flag("band36GHz", "3.6 GHz (reserved)", supportedBands, 3),
            flag("band5GHz", "4.9 and 5 GHz", supportedBands, 4),
            flag("band60GHz", "60 GHz (reserved)", supportedBands, 5),
            flag("band45GHz", "45 GHz (reserved)", supportedBands, 6),
            flag("band6GHz", "6 GHz", supportedBands, 7),
            DecodedField("operationMode", "Operation Mode", .bits(UInt64(operationMode), digits: 2)),
            DecodedField(
                "phyMode",
                "PHY Mode",
                operationMode & 0x01 != 0 ? .named(1, "VHT") : .named(0, "HT")
            ),
            flag("vht8080", "HE/VHT 80+80", operationMode, 1),
            flag("vht160", "HE/VHT 160", operationMode, 2),
            flag("pagingNDL", "Paging NDL (reserved)", operationMode, 3),
            flag("he", "HE", operationMode, 4),
            DecodedField("numberOfAntennas", "Number of Antennas", .bits(UInt64(numberOfAntennas), digits: 2)),
            number("transmitAntennas", "TX Antennas", transmitAntennas),
            number("receiveAntennas", "RX Antennas", receiveAntennas),
            DecodedField(
                "maxChannelSwitchTime",
                "Max Channel Switch Time (µs)",
                .unsigned(UInt64(maxChannelSwitchTime))
            ),
            DecodedField("capabilities", "Capabilities", .bits(UInt64(capabilities), digits: 2)),
            flag("dfsMaster", "DFS Master", capabilities, 0),
            flag("extendedKeyID", "Extended Key ID", capabilities, 1),
            flag("simultaneousNDPDataReception", "Simultaneous NDP Data Reception", capabilities, 2),
            flag("ndpeAttributeSupported", "NDPE Attribute Support", capabilities, 3),
            flag("s3Capable", "S3 Capable", capabilities, 4),
        ]
    }
}

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
