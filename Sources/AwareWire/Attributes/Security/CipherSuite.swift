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
