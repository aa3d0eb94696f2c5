/// A client asks for a file from an offset: `Offset (8) | Name (UTF-8, rest)`. The fixed field
/// comes first so that the name can take the rest of the payload without a length of its own.
public struct FileRequest: Hashable, Sendable {
    public var name: String
    /// The first octet wanted: 0 for a new transfer, the octets already held on a resume.
    public var offset: UInt64

    public init(name: String, offset: UInt64 = 0) {
        self.name = name
        self.offset = offset
    }
}

extension FileRequest: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        offset = try reader.readUInt64BE("Offset")
        name = try UTF8Text.read(from: &reader, field: "Name")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt64BE(offset)
        writer.write(name.utf8)
    }
}

extension FileRequest: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            DecodedField("offset", "Offset", .unsigned(offset)),
            DecodedField("name", "Name", .text(name)),
        ]
    }
}
