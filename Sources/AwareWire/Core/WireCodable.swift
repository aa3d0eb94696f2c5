import AwareCore

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

/// One named field of a decoded structure, for people (`aware-conform decode`) and for
/// machines (`decode --json`). Structures describe themselves with these so that the
/// text view and the JSON view can never disagree.
public struct DecodedField: Hashable, Sendable {
    /// The JSON key: lowerCamelCase, in the protocol's words (`serviceID`, `requestorInstanceID`).
    public var key: String
    /// The label a person reads ("Service ID").
    public var label: String
    public var value: DecodedValue

    public init(_ key: String, _ label: String, _ value: DecodedValue) {
        self.key = key
        self.label = label
        self.value = value
    }
}

/// The value of a decoded field.
public indirect enum DecodedValue: Hashable, Sendable {
    /// A number.
    case unsigned(UInt64)
    /// A control field or bitmap: a number, shown in hex with `digits` digits to people.
    case bits(UInt64, digits: Int)
    case flag(Bool)
    /// A byte string: lower-case hex in JSON.
    case bytes([UInt8])
    case text(String)
    case address(MACAddress)
    /// An enumerated value and what it means ("0 = Publish").
    case named(UInt64, String)
    /// A nested structure.
    case fields([DecodedField])
    case list([DecodedValue])
}

/// A value that can list its decoded fields.
public protocol WireDescribable {
    var decodedFields: [DecodedField] { get }
}

extension DecodedValue {
    /// Shorthand for an optional field: nil drops the field.
    public static func bytesIfPresent(_ value: [UInt8]?) -> DecodedValue? { value.map { .bytes($0) } }
}
