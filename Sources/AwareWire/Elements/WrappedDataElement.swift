/// The Wrapped Data element (ID 255, Element ID Extension 8; IEEE 802.11-2020 9.4.2.293):
/// in PASN with SAE it carries the SAE commit/confirm (nan-wire-reference.md 3.4.1, item 2).
///
/// Data over 254 octets does not fit one element: the element then carries 254 data octets
/// after the extension ID (Length 255) and the rest follows in Fragment elements; both the
/// reader and the writer handle that (``ElementFragments``).
public struct WrappedDataElement: ExtensionElementBody {
    public static let extensionID: UInt8 = 8
    public static let structureName = "Wrapped Data element"

    public var data: [UInt8]

    public init(data: [UInt8]) { self.data = data }

    /// Parses the information after the Element ID Extension.
    public init(information reader: inout WireReader) {
        reader.structure = Self.structureName
        data = reader.readRemaining()
    }

    public func writeInformation(to writer: inout WireWriter) {
        writer.write(data)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("dataLength", "Data Length", .unsigned(UInt64(data.count))),
            DecodedField("wrappedData", "Wrapped Data", .bytes(data)),
        ]
    }
}
