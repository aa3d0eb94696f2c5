/// The Supported Groups element (ID 255, Element ID Extension 161): a list of LE16 IANA
/// group numbers. hostap adds it to PASN frame 2 (`FF 03 A1 13 00`, nan-wire-reference.md
/// 3.4.1, item 6).
public struct SupportedGroupsElement: ExtensionElementBody {
    public static let extensionID: UInt8 = 161
    public static let structureName = "Supported Groups element"

    public var groups: [UInt16]

    public init(groups: [UInt16]) { self.groups = groups }

    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        guard reader.remaining % 2 == 0 else {
            throw reader.error(.invalidValue("the group list has an odd number of octets"), field: "Supported Groups")
        }
        var list: [UInt16] = []
        while !reader.isAtEnd { list.append(try reader.readUInt16LE("Group")) }
        groups = list
    }

    public func writeInformation(to writer: inout WireWriter) {
        for group in groups { writer.writeUInt16LE(group) }
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("groups", "Supported Groups", .list(groups.map { .unsigned(UInt64($0)) }))]
    }
}
