import AwareCore

/// Cluster attribute (0x01, length 13): Anchor Master Rank (8) | Hop Count to Anchor Master (1) |
/// AM Beacon Transmission Time (4, LE) (nan-wire-reference.md 2.3).
///
/// The Anchor Master Rank is a little-endian 64-bit Master Rank
/// `MasterPreference << 56 | RandomFactor << 48 | MAC`, where the 48-bit MAC part is the NMI read
/// little-endian, so the octets on the wire are `MAC[0] ... MAC[5] RandomFactor MasterPreference`
/// (nan-wire-reference.md 1.4, from OpenNAN `nan_calculate_master_rank`).
public struct ClusterAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.cluster

    public var anchorMasterRank: UInt64
    /// 0 when the sender is the anchor master.
    public var hopCountToAnchorMaster: UInt8
    /// AMBTT; commonly the low 32 bits of the TSF of the anchor master's last beacon (unverified, 1.4).
    public var anchorMasterBeaconTransmissionTime: UInt32

    public init(anchorMasterRank: UInt64, hopCountToAnchorMaster: UInt8, anchorMasterBeaconTransmissionTime: UInt32) {
        self.anchorMasterRank = anchorMasterRank
        self.hopCountToAnchorMaster = hopCountToAnchorMaster
        self.anchorMasterBeaconTransmissionTime = anchorMasterBeaconTransmissionTime
    }

    /// The Master Rank of a device with this preference, random factor and NMI (1.4).
    public static func masterRank(masterPreference: UInt8, randomFactor: UInt8, address: MACAddress) -> UInt64 {
        var rank = UInt64(masterPreference) << 56 | UInt64(randomFactor) << 48
        for (index, octet) in address.octets.enumerated() {
            rank |= UInt64(octet) << (8 * UInt64(index))
        }
        return rank
    }

    public var anchorMasterPreference: UInt8 { UInt8(truncatingIfNeeded: anchorMasterRank >> 56) }
    public var anchorMasterRandomFactor: UInt8 { UInt8(truncatingIfNeeded: anchorMasterRank >> 48) }
    /// The anchor master's NMI, from the low 48 bits (MAC[0] least significant).
    public var anchorMasterAddress: MACAddress {
        let octets = (0..<6).map { UInt8(truncatingIfNeeded: anchorMasterRank >> (8 * UInt64($0))) }
        return MACAddress(octets[0], octets[1], octets[2], octets[3], octets[4], octets[5])
    }

    public init(from reader: inout WireReader) throws(WireError) {
        anchorMasterRank = try reader.readUInt64LE("Anchor Master Rank")
        hopCountToAnchorMaster = try reader.readUInt8("Hop Count to Anchor Master")
        anchorMasterBeaconTransmissionTime = try reader.readUInt32LE("AM Beacon Transmission Time")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt64LE(anchorMasterRank)
        writer.write(hopCountToAnchorMaster)
        writer.writeUInt32LE(anchorMasterBeaconTransmissionTime)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("anchorMasterRank", "Anchor Master Rank", .bits(anchorMasterRank, digits: 16)),
            DecodedField(
                "anchorMasterPreference",
                "Anchor Master Preference",
                .unsigned(UInt64(anchorMasterPreference))
            ),
            DecodedField(
                "anchorMasterRandomFactor",
                "Anchor Master Random Factor",
                .unsigned(UInt64(anchorMasterRandomFactor))
            ),
            DecodedField("anchorMasterAddress", "Anchor Master Address", .address(anchorMasterAddress)),
            DecodedField(
                "hopCountToAnchorMaster",
                "Hop Count to Anchor Master",
                .unsigned(UInt64(hopCountToAnchorMaster))
            ),
            DecodedField(
                "anchorMasterBeaconTransmissionTime",
                "AM Beacon Transmission Time",
                .unsigned(UInt64(anchorMasterBeaconTransmissionTime))
            ),
        ]
    }
}

/// Master Indication attribute (0x00, length 2): Master Preference (1) | Random Factor (1)
/// (nan-wire-reference.md 2.3).
public struct MasterIndicationAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.masterIndication

    public var masterPreference: UInt8
    public var randomFactor: UInt8

    public init(masterPreference: UInt8, randomFactor: UInt8) {
        self.masterPreference = masterPreference
        self.randomFactor = randomFactor
    }

    public init(from reader: inout WireReader) throws(WireError) {
        masterPreference = try reader.readUInt8("Master Preference")
        randomFactor = try reader.readUInt8("Random Factor")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(masterPreference)
        writer.write(randomFactor)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("masterPreference", "Master Preference", .unsigned(UInt64(masterPreference))),
            DecodedField("randomFactor", "Random Factor", .unsigned(UInt64(randomFactor))),
        ]
    }
}
