/// The body of a NAN Action Frame (nan-wire-reference.md 1.1):
/// `Category (4 or 9) | 09 | 50 6F 9A | 18 | OUI Subtype (1.2) | attributes`.
public struct NANActionFrame: Hashable, Sendable, WireCodable, WireDescribable {
    /// `NAN_NAF_OUI_TYPE`.
    public static let ouiType: UInt8 = 0x18
    public static let structureName = "NAN Action Frame"

    public var category: NANActionCategory
    public var subtype: NAFSubtype
    public var attributes: [NANAttribute]

    public init(category: NANActionCategory = .publicAction, subtype: NAFSubtype, attributes: [NANAttribute]) {
        self.category = category
        self.subtype = subtype
        self.attributes = attributes
    }

    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let category = try NANActionHeader.read(from: &reader, ouiType: Self.ouiType)
        try self.init(category: category, subtypeFrom: &reader)
    }

    /// Reads the OUI Subtype and attributes after the 6-octet action header.
    init(category: NANActionCategory, subtypeFrom reader: inout WireReader) throws(WireError) {
        self.category = category
        subtype = NAFSubtype(rawValue: try reader.readUInt8("OUI Subtype"))
        attributes = try NANAttribute.readList(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        NANActionHeader.write(category: category, ouiType: Self.ouiType, to: &writer)
        writer.write(subtype.rawValue)
        NANAttribute.writeList(attributes, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        NANActionHeader.describe(category: category, ouiType: Self.ouiType, typeName: "NAF") + [
            DecodedField("ouiSubtype", "OUI Subtype", .named(UInt64(subtype.rawValue), subtype.name)),
            DecodedField("attributes", "Attributes", .list(attributes.map(NANAttributeDescription.describe))),
        ]
    }
}
