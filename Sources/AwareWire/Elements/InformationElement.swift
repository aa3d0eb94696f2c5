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

/// Element fragmentation (IEEE 802.11-2020 10.28.11): an element whose information does not
/// fit in 255 octets is sent as the element with Length 255, followed by Fragment elements
/// (ID 242) of 255 octets each, the last one shorter. nan-wire-reference.md 3.4.1 uses it
/// for PASN Wrapped Data over 254 data octets.
public enum ElementFragments {
    /// The Fragment element ID.
    public static let fragmentID: UInt8 = 242
    /// The most information octets one element (or fragment) holds.
    public static let maximumLength = 255

    /// One element read from the wire with its fragments joined.
    public struct Reassembled: Sendable {
        public var id: UInt8
        /// All information octets (after the Length octets), fragments appended in order.
        public var information: [UInt8]
        /// A reader over `information`. For an unfragmented element it shares the outer
        /// buffer's offsets; for a reassembled one, offsets count from the first
        /// information octet, since the octets are no longer contiguous on the wire.
        public var reader: WireReader
        public var fragmentCount: Int
    }

    /// Reads one element and any Fragment elements that continue it. A fragment chain
    /// continues only after a 255-octet element or fragment; an empty fragment would not
    /// round-trip and is rejected.
    public static func read(from reader: inout WireReader) throws(WireError) -> Reassembled {
        let id = try reader.readUInt8("Element ID")
        let length = Int(try reader.readUInt8("Length"))
        var information = try reader.subReader(length: length, field: "Length")
        guard length == maximumLength, reader.peek(1).first == fragmentID else {
            let octets = Array(information.bytes)
            return Reassembled(id: id, information: octets, reader: information, fragmentCount: 0)
        }
        var joined = information.readRemaining()
        var fragments = 0
        var lastLength = length
        while lastLength == maximumLength, reader.peek(1).first == fragmentID {
            _ = try reader.readUInt8("Fragment element ID")
            lastLength = Int(try reader.readUInt8("Fragment Length"))
            if lastLength == 0 {
                throw reader.error(
                    .invalidValue("an empty Fragment element cannot continue an element"),
                    field: "Fragment Length",
                    at: reader.offset - 1
                )
            }
            var fragment = try reader.subReader(length: lastLength, field: "Fragment Length")
            joined += fragment.readRemaining()
            fragments += 1
        }
        let structure = "element \(id) (reassembled from \(fragments + 1) fragments)"
        return Reassembled(
            id: id,
            information: joined,
            reader: WireReader(joined, structure: structure),
            fragmentCount: fragments
        )
    }

    /// Reads one element that must have `id` (and, for ID 255, `extensionID`), and returns
    /// a reader over its information after the Element ID Extension, named `structure`.
    public static func read(
        from reader: inout WireReader,
        expecting id: UInt8,
        extensionID: UInt8? = nil,
        structure: String
    ) throws(WireError) -> WireReader {
        let start = reader.offset
        var element = try read(from: &reader)
        guard element.id == id else {
            throw reader.error(.invalidValue("element ID \(element.id) is not \(id)"), field: "Element ID", at: start)
        }
        element.reader.structure = structure
        if let extensionID {
            let found = try element.reader.readUInt8("Element ID Extension")
            guard found == extensionID else {
                throw element.reader.error(
                    .invalidValue("element ID extension \(found) is not \(extensionID)"),
                    field: "Element ID Extension",
                    at: element.reader.offset - 1
                )
            }
        }
        return element.reader
    }

    /// Writes `ID | Length | information`, splitting information over 255 octets into
    /// Fragment elements.
    public static func write(id: UInt8, information: [UInt8], to writer: inout WireWriter) {
        var start = 0
        var elementID = id
        repeat {
            let end = min(information.count, start + maximumLength)
            writer.write(elementID)
            writer.write(UInt8(truncatingIfNeeded: end - start))
            writer.write(information[start..<end])
            start = end
            elementID = fragmentID
        } while start < information.count
    }
}

/// An element with an Element ID of its own (MIC, NAN, RSN, RSNX; nan-wire-reference.md
/// 3.4.1). It is read with its fragments joined (``ElementFragments``) and then parsed from
/// its information octets; ``FrameElement`` calls `init(information:)` on an element it has
/// already read.
public protocol ElementBody: WireCodable, WireDescribable {
    static var elementID: UInt8 { get }
    static var structureName: String { get }
    /// Parses the information octets (after Element ID and Length).
    init(information reader: inout WireReader) throws(WireError)
    /// The information octets.
    var information: [UInt8] { get }
}

extension ElementBody {
    public init(from reader: inout WireReader) throws(WireError) {
        var body = try ElementFragments.read(from: &reader, expecting: Self.elementID, structure: Self.structureName)
        try self.init(information: &body)
    }

    public func write(to writer: inout WireWriter) {
        ElementFragments.write(id: Self.elementID, information: information, to: &writer)
    }
}

/// An element under Element ID 255 told apart by its Element ID Extension (Wrapped Data,
/// Supported Groups; nan-wire-reference.md 3.4.1). It is read with its fragments joined
/// (``ElementFragments``) and then parsed from the octets after the extension ID;
/// ``FrameElement`` calls `init(information:)` on an element it has already read.
public protocol ExtensionElementBody: WireCodable, WireDescribable {
    static var extensionID: UInt8 { get }
    static var structureName: String { get }
    /// Parses the information after the Element ID Extension.
    init(information reader: inout WireReader) throws(WireError)
    /// Writes the information after the Element ID Extension.
    func writeInformation(to writer: inout WireWriter)
}

extension ExtensionElementBody {
    public init(from reader: inout WireReader) throws(WireError) {
        var body = try ElementFragments.read(
            from: &reader,
            expecting: InformationElement.extensionID,
            extensionID: Self.extensionID,
            structure: Self.structureName
        )
        try self.init(information: &body)
    }

    public func write(to writer: inout WireWriter) {
        var information = WireWriter()
        information.write(Self.extensionID)
        writeInformation(to: &information)
        ElementFragments.write(id: InformationElement.extensionID, information: information.bytes, to: &writer)
    }
}
