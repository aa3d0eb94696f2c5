/// The server's answer to a request: `Size (8) | SHA-256 (32) | Name (UTF-8, rest)`. The
/// digest covers the whole file, whatever offset was asked for, so that a resumed transfer is
/// still checked end to end.
public struct FileHeader: Hashable, Sendable {
    public static let digestLength = 32

    public var size: UInt64
    /// SHA-256 of the whole file; always 32 octets.
    public let sha256: [UInt8]
    public var name: String

    /// `sha256` must be 32 octets (a programming error otherwise).
    public init(size: UInt64, sha256: [UInt8], name: String) {
        precondition(sha256.count == Self.digestLength, "a SHA-256 digest is 32 octets")
        self.size = size
        self.sha256 = sha256
        self.name = name
    }
}

extension FileHeader: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        size = try reader.readUInt64BE("Size")
        sha256 = try reader.readBytes(Self.digestLength, "SHA-256")
        name = try UTF8Text.read(from: &reader, field: "Name")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt64BE(size)
        writer.write(sha256)
        writer.write(name.utf8)
    }
}

extension FileHeader: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            DecodedField("size", "Size", .unsigned(size)),
            DecodedField("sha256", "SHA-256", .bytes(sha256)),
            DecodedField("name", "Name", .text(name)),
        ]
    }
}
