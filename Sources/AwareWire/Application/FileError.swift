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
