import AwareCore

/// The NAN vendor element `DD | len | 50 6F 9A 13 | attributes` of NAN Beacons and PASN
/// Authentication frames (nan-wire-reference.md 1.1, 3.4.1 item 5).
public struct NANElement: ElementBody {
    public static let elementID: UInt8 = 221
    /// OUI 50-6F-9A (Wi-Fi Alliance) and OUI type 0x13 (`NAN_IE_VENDOR_TYPE`).
    public static let vendorPrefix: [UInt8] = [0x50, 0x6F, 0x9A, 0x13]
    public static let structureName = "NAN element"

    public var attributes: [NANAttribute]

    public init(attributes: [NANAttribute]) { self.attributes = attributes }

    /// Whether a vendor element's information starts with the NAN prefix.
    public static func matches(id: UInt8, information: some Collection<UInt8>) -> Bool {
        id == elementID && information.starts(with: vendorPrefix)
    }

    /// Parses the information octets: the prefix, then attributes filling the rest.
    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let prefix = try reader.readBytes(4, "OUI and OUI Type")
        guard prefix == Self.vendorPrefix else {
            throw reader.error(
                .invalidValue("vendor prefix \(HexString.encode(prefix)) is not 506f9a13"),
                field: "OUI and OUI Type",
                at: reader.offset - 4
            )
        }
        attributes = try NANAttribute.readList(from: &reader)
    }

    public var information: [UInt8] {
        var writer = WireWriter()
        writer.write(Self.vendorPrefix)
        NANAttribute.writeList(attributes, to: &writer)
        return writer.bytes
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("oui", "OUI", .bytes(Array(Self.vendorPrefix.prefix(3)))),
            DecodedField("ouiType", "OUI Type", .named(0x13, "NAN")),
            DecodedField("attributes", "Attributes", .list(attributes.map(NANAttributeDescription.describe))),
        ]
    }
}
