import AwareCore

/// The body of one kind of NAN attribute: what follows the 3-octet header
/// `Attribute ID (1) | Length (2, LE)` (nan-wire-reference.md 2.1).
///
/// A body parser is handed a reader bounded to exactly `Length` octets and must consume
/// all of them: the attribute header's length and the content must agree.
public protocol NANAttributeBody: WireCodable, WireDescribable {
    static var attributeID: NANAttributeID { get }
}

extension NANAttributeBody {
    /// The structure name used in errors: "Service Descriptor attribute".
    public static var structureName: String { "\(attributeID.name) attribute" }

    /// The whole attribute, header included.
    public var attributeBytes: [UInt8] {
        var writer = WireWriter()
        writeAttribute(to: &writer)
        return writer.bytes
    }

    /// Writes `ID | Length | Body`.
    public func writeAttribute(to writer: inout WireWriter) {
        writer.write(Self.attributeID.rawValue)
        writer.withLength16LE { write(to: &$0) }
    }

    /// Parses a whole attribute, header included, as this kind; any other ID is an error.
    public init(attributeBytes bytes: some Collection<UInt8>) throws(WireError) {
        var reader = WireReader(Array(bytes), structure: Self.structureName)
        let id = try reader.readUInt8("Attribute ID")
        guard id == Self.attributeID.rawValue else {
            throw reader.error(
                .invalidValue(
                    "attribute ID 0x\(HexString.byte(id)) is not 0x\(HexString.byte(Self.attributeID.rawValue))"
                ),
                field: "Attribute ID",
                at: reader.offset - 1
            )
        }
        let length = Int(try reader.readUInt16LE("Length"))
        var body = try reader.subReader(length: length, field: "Length")
        try self.init(from: &body)
        try body.expectEnd()
        try reader.expectEnd()
    }
}
