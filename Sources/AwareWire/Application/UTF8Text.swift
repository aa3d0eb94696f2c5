/// Names and texts travel as UTF-8 without a terminator or length: they fill the rest of the
/// payload. Invalid UTF-8 is an error, so a name that parses re-encodes to the same octets.
enum UTF8Text {
    static func read(from reader: inout WireReader, field: String) throws(WireError) -> String {
        let offset = reader.offset
        let octets = reader.readRemaining()
        guard let name = String(validating: octets, as: UTF8.self) else {
            throw reader.error(.invalidValue("\(field) is not valid UTF-8"), field: field, at: offset)
        }
        return name
    }
}
