/// One NAN attribute: `Attribute ID (1) | Length (2, LE) | Body` (nan-wire-reference.md 2.1).
///
/// A closed set of the attributes AwareBench understands, and everything else kept
/// byte-exact in ``unknown(id:body:)`` so that a frame re-serializes intact.
public enum NANAttribute: Hashable, Sendable {
    case unknown(id: NANAttributeID, body: [UInt8])

    /// The attribute ID this value is written with.
    public var id: NANAttributeID {
        switch self {
        case .unknown(let id, _): id
        }
    }
}

extension NANAttribute: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        let id = NANAttributeID(try reader.readUInt8("Attribute ID"))
        let length = Int(try reader.readUInt16LE("Length"))
        var body = try reader.subReader(
            length: length,
            structure: "\(id.name) attribute (0x\(HexString.byte(id.rawValue)))",
            field: "Length"
        )
        self = try Self.decodeBody(id: id, reader: &body)
        try body.expectEnd()
    }

    /// Picks the body parser for `id`; unknown IDs keep their octets.
    static func decodeBody(id: NANAttributeID, reader: inout WireReader) throws(WireError) -> NANAttribute {
        switch id {
        default:
            return .unknown(id: id, body: reader.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(id.rawValue)
        writer.withLength16LE { body in
            switch self {
            case .unknown(_, let octets): body.write(octets)
            }
        }
    }
}

extension NANAttribute {
    /// Parses a run of attributes that must exactly fill `reader` (hostap `nan_parse_attrs`
    /// fails the whole frame otherwise).
    public static func readList(from reader: inout WireReader) throws(WireError) -> [NANAttribute] {
        var attributes: [NANAttribute] = []
        while !reader.isAtEnd {
            attributes.append(try NANAttribute(from: &reader))
        }
        return attributes
    }

    public static func writeList(_ attributes: [NANAttribute], to writer: inout WireWriter) {
        for attribute in attributes { attribute.write(to: &writer) }
    }
}
