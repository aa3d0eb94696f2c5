/// An IEEE 802.11 element: `Element ID (1) | Length (1) | Information`. Elements with
/// ID 255 carry an Element ID Extension as their first information octet.
///
/// This is the raw, byte-exact form. Frames decode the elements they know into typed
/// values and keep the rest as these.
public struct InformationElement: Hashable, Sendable, WireCodable {
    public var id: UInt8
    /// The information octets, after the length (including the extension ID for ID 255).
    public var body: [UInt8]

    public init(id: UInt8, body: [UInt8]) {
        self.id = id
        self.body = body
    }

    /// Element ID 255 (IEEE 802.11-2020 9.4.2.1).
    public static let extensionID: UInt8 = 255

    /// The Element ID Extension, for elements with ID 255 and a non-empty body.
    public var extensionID: UInt8? { id == Self.extensionID ? body.first : nil }

    public init(from reader: inout WireReader) throws(WireError) {
        id = try reader.readUInt8("Element ID")
        let length = Int(try reader.readUInt8("Length"))
        var information = try reader.subReader(length: length, field: "Length")
        body = information.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.write(id)
        writer.withLength8 { $0.write(body) }
    }

    /// Parses elements until `reader` is exhausted.
    public static func readList(from reader: inout WireReader) throws(WireError) -> [InformationElement] {
        var elements: [InformationElement] = []
        while !reader.isAtEnd {
            elements.append(try InformationElement(from: &reader))
        }
        return elements
    }
}
