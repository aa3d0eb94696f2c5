/// A value with one wire form: parse and serialize are inverses.
public protocol WireCodable: Hashable, Sendable {
    /// Reads the value from `reader`, consuming exactly its octets.
    init(from reader: inout WireReader) throws(WireError)
    /// Appends the value's octets.
    func write(to writer: inout WireWriter)
}

extension WireCodable {
    /// Parses a whole buffer as this value; octets left over are an error.
    public init(wireBytes bytes: some Collection<UInt8>, structure: String) throws(WireError) {
        var reader = WireReader(Array(bytes), structure: structure)
        try self.init(from: &reader)
        try reader.expectEnd()
    }

    /// The value's octets.
    public var wireBytes: [UInt8] {
        var writer = WireWriter()
        write(to: &writer)
        return writer.bytes
    }
}
