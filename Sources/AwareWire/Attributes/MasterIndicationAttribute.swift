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
