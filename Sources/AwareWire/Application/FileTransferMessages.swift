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

/// A server's refusal: `Code (1) | Text (UTF-8, rest)`.
public struct FileError: Hashable, Sendable {
    public var code: FileErrorCode
    public var text: String

    public init(code: FileErrorCode, text: String) {
        self.code = code
        self.text = text
    }
}

extension FileError: WireCodable {
    public init(from reader: inout WireReader) throws(WireError) {
        code = FileErrorCode(rawValue: try reader.readUInt8("Code"))
        text = try UTF8Text.read(from: &reader, field: "Text")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(code.rawValue)
        writer.write(text.utf8)
    }
}

extension FileError: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            DecodedField("code", "Code", .named(UInt64(code.rawValue), code.name)),
            DecodedField("text", "Text", .text(text)),
        ]
    }
}

/// Why a server refused a request. An open set: a code this bench does not name is kept and
/// shown as "Unknown", because the text that follows still explains it to a person.
public struct FileErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The server has no file of that name.
    public static let notFound = Self(rawValue: 1)
    /// The requested offset is past the end of the file.
    public static let invalidOffset = Self(rawValue: 2)
    /// The request could not be parsed or arrived in the wrong order.
    public static let badRequest = Self(rawValue: 3)

    public var name: String {
        switch rawValue {
        case 1: "Not Found"
        case 2: "Invalid Offset"
        case 3: "Bad Request"
        default: "Unknown"
        }
    }

    public var description: String { "\(rawValue) (\(name))" }
}
