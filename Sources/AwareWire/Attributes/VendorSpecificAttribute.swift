/// Vendor Specific attribute (0xDD): OUI (3) | vendor-defined body (nan-wire-reference.md 2.2).
public struct VendorSpecificAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.vendorSpecific

    /// Three octets, network order.
    public let oui: [UInt8]
    public var body: [UInt8]

    /// `oui` must be three octets (a programming error otherwise).
    public init(oui: [UInt8], body: [UInt8]) {
        precondition(oui.count == 3, "an OUI is three octets")
        self.oui = oui
        self.body = body
    }

    public init(from reader: inout WireReader) throws(WireError) {
        oui = try reader.readBytes(3, "OUI")
        body = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.write(oui)
        writer.write(body)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("oui", "OUI", .bytes(oui)),
            DecodedField("body", "Body", .bytes(body)),
        ]
    }
}
