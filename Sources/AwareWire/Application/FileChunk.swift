/// Part of a file: `Offset (8) | Data (rest)`. The offset is explicit so that a receiver can
/// tell a chunk it did not ask for from the next one.
public struct FileChunk: Hashable, Sendable {
    public var offset: UInt64
    public var data: [UInt8]

    public init(offset: UInt64, data: [UInt8]) {
        self.offset = offset
        self.data = data
    }
}

extension FileChunk: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        offset = try reader.readUInt64BE("Offset")
        data = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt64BE(offset)
        writer.write(data)
    }
}

extension FileChunk: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            DecodedField("offset", "Offset", .unsigned(offset)),
            DecodedField("data", "Data", .bytes(data)),
        ]
    }
}
