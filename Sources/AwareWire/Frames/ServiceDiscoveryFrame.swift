/// The body of a NAN Service Discovery Frame (nan-wire-reference.md 1.1):
/// `Category (4 or 9) | 09 (Vendor Specific) | 50 6F 9A | 13 | attributes`.
public struct ServiceDiscoveryFrame: Hashable, Sendable, WireCodable, WireDescribable {
    /// `NAN_SDF_OUI_TYPE`.
    public static let ouiType: UInt8 = 0x13
    public static let structureName = "Service Discovery Frame"

    public var category: NANActionCategory
    public var attributes: [NANAttribute]

    public init(category: NANActionCategory = .publicAction, attributes: [NANAttribute]) {
        self.category = category
        self.attributes = attributes
    }

    /// Reads a whole action body; it must be an SDF.
    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let category = try NANActionHeader.read(from: &reader, ouiType: Self.ouiType)
        try self.init(category: category, attributesFrom: &reader)
    }

    /// Reads the attributes after the 6-octet action header.
    init(category: NANActionCategory, attributesFrom reader: inout WireReader) throws(WireError) {
        self.category = category
        attributes = try NANAttribute.readList(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        NANActionHeader.write(category: category, ouiType: Self.ouiType, to: &writer)
        NANAttribute.writeList(attributes, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        NANActionHeader.describe(category: category, ouiType: Self.ouiType, typeName: "SDF") + [
            DecodedField("attributes", "Attributes", .list(attributes.map(NANAttributeDescription.describe)))
        ]
    }
}

extension ServiceDiscoveryFrame {
    /// "SDF Publish", "SDF Subscribe", "SDF Follow-up" (from the Service Descriptor
    /// attributes; several in one frame are joined), or "SDF" without one.
    public var summary: String {
        var kinds: [String] = []
        for case .serviceDescriptor(let sda) in attributes where !kinds.contains(sda.type.name) {
            kinds.append(sda.type.name)
        }
        return kinds.isEmpty ? "SDF" : "SDF " + kinds.joined(separator: "+")
    }
}
