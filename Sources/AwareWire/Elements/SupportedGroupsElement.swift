/// The Supported Groups element (ID 255, Element ID Extension 161): a list of LE16 IANA
/// group numbers. hostap adds it to PASN frame 2 (`FF 03 A1 13 00`, nan-wire-reference.md
/// 3.4.1, item 6).
public struct SupportedGroupsElement: Hashable, Sendable, WireCodable, WireDescribable {
    public static let extensionID: UInt8 = 161
    public static let structureName = "Supported Groups element"

    public var groups: [UInt16]

    public init(groups: [UInt16]) { self.groups = groups }

    public init(from reader: inout WireReader) throws(WireError) {
        var information = try ElementFragments.read(
            from: &reader,
            expecting: InformationElement.extensionID,
            extensionID: Self.extensionID,
            structure: Self.structureName
        )
        try self.init(information: &information)
    }

    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        guard reader.remaining % 2 == 0 else {
            throw reader.error(.invalidValue("the group list has an odd number of octets"), field: "Supported Groups")
        }
        var list: [UInt16] = []
        while !reader.isAtEnd { list.append(try reader.readUInt16LE("Group")) }
        groups = list
    }

    public func write(to writer: inout WireWriter) {
        var information = WireWriter()
        information.write(Self.extensionID)
        for group in groups { information.writeUInt16LE(group) }
        ElementFragments.write(id: InformationElement.extensionID, information: information.bytes, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        [DecodedField("groups", "Supported Groups", .list(groups.map { .unsigned(UInt64($0)) }))]
    }
}
