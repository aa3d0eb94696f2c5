/// Element Container attribute (0x1D) (nan-wire-reference.md 2.12; hostap
/// `NAN_ELEMENT_CONTAINER_MAP_ID_*`): Map ID (1: b0 Map ID valid, b1-4 Map ID, b5-7
/// reserved) then IEEE 802.11 elements to the end of the body (HT/VHT/HE capabilities in
/// NAFs). The whole Map ID octet is kept.
public struct ElementContainerAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.elementContainer

    public var mapIDField: UInt8
    public var elements: [InformationElement]

    public init(mapIDField: UInt8, elements: [InformationElement]) {
        self.mapIDField = mapIDField
        self.elements = elements
    }

    /// - Parameter mapID: nil for "applies to all maps" (hostap writes 0); else 0...15.
    public init(mapID: UInt8?, elements: [InformationElement]) {
        self.init(mapIDField: mapID.map { 0x01 | ($0 & 0x0F) << 1 } ?? 0, elements: elements)
    }

    public var mapIDValid: Bool { mapIDField & 0x01 != 0 }
    public var mapID: UInt8 { (mapIDField >> 1) & 0x0F }

    public init(from reader: inout WireReader) throws(WireError) {
        mapIDField = try reader.readUInt8("Map ID")
        elements = try InformationElement.readList(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        writer.write(mapIDField)
        for element in elements { element.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("mapIDField", "Map ID field", .bits(UInt64(mapIDField), digits: 2)),
            DecodedField("mapIDValid", "Map ID Valid", .flag(mapIDValid)),
            DecodedField("mapID", "Map ID", .unsigned(UInt64(mapID))),
            DecodedField(
                "elements",
                "Elements",
                .list(
                    elements.map { element in
                        var fields = [DecodedField("elementID", "Element ID", .unsigned(UInt64(element.id)))]
                        if let extensionID = element.extensionID {
                            fields.append(
                                DecodedField(
                                    "elementIDExtension",
                                    "Element ID Extension",
                                    .unsigned(UInt64(extensionID))
                                )
                            )
                        }
                        fields.append(DecodedField("information", "Information", .bytes(element.body)))
                        return .fields(fields)
                    }
                )
            ),
        ]
    }
}
