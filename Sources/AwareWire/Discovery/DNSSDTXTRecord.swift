/// A DNS-SD TXT record (RFC 6763 section 6): an ordered list of strings, each written as a
/// 1-octet length and that many octets, usually `key=value`.
///
/// This is what hostap carries as the publish Service Specific Info with Service Protocol
/// Type 1 (Bonjour), and where the phone reads `vendorName`, `modelName` and `pairingName`
/// (apple-peer-model.md 1.6). Strings are kept as octets so that any record re-serializes
/// byte-exact, including values that are not UTF-8 and strings without `=`.
public struct DNSSDTXTRecord: Hashable, Sendable {
    /// The phone reads each value as UTF-8 of at most 63 octets and may truncate longer ones
    /// (apple-peer-model.md 1.6, "PairingInfo").
    public static let phoneMaximumValueOctets = 63
    /// A string's length is one octet.
    public static let maximumStringOctets = 255

    /// The strings in order, without their length octets.
    public var strings: [[UInt8]]

    public init(strings: [[UInt8]]) {
        self.strings = strings
    }

    /// `key=value` strings in order. Each string must fit in 255 octets (a programming error
    /// otherwise, caught when the record is written).
    public init(_ pairs: [(key: String, value: String)]) {
        strings = pairs.map { Array("\($0.key)=\($0.value)".utf8) }
    }

    /// The key of each string: the octets before the first `=` (the whole string when there is none).
    public var keys: [String] {
        strings.map { String(decoding: Self.split($0).key, as: UTF8.self) }
    }

    /// The value octets of the first string whose key equals `key`, compared case-insensitively
    /// in ASCII (RFC 6763 6.4: keys are case insensitive, only the first occurrence counts).
    /// nil when the key is absent; `[]` for `key` or `key=` (RFC 6763 6.4 boolean and empty value).
    public func valueOctets(forKey key: String) -> [UInt8]? {
        let wanted = Self.lowercasedASCII(Array(key.utf8))
        for string in strings {
            let (stringKey, value) = Self.split(string)
            if Self.lowercasedASCII(stringKey) == wanted { return value ?? [] }
        }
        return nil
    }

    /// The value of `key` as UTF-8 text; nil if the key is absent or the value is not UTF-8.
    public func value(forKey key: String) -> String? {
        guard let octets = valueOctets(forKey: key) else { return nil }
        return Self.utf8String(octets)
    }

    public subscript(key: String) -> String? { value(forKey: key) }

    /// The first key whose value breaks the phone's rule (UTF-8 of at most `maximumValueOctets`
    /// octets), or nil when every value keeps it.
    public func keyViolatingValueRule(maximumValueOctets: Int = phoneMaximumValueOctets) -> String? {
        for string in strings {
            let (key, value) = Self.split(string)
            guard let value else { continue }
            if value.count > maximumValueOctets || Self.utf8String(value) == nil {
                return String(decoding: key, as: UTF8.self)
            }
        }
        return nil
    }

    /// The text of `octets` if they are valid UTF-8 (decoding replaces invalid sequences, so a
    /// changed re-encoding means they were not).
    static func utf8String(_ octets: [UInt8]) -> String? {
        let text = String(decoding: octets, as: UTF8.self)
        return Array(text.utf8) == octets ? text : nil
    }

    private static func split(_ string: [UInt8]) -> (key: [UInt8], value: [UInt8]?) {
        guard let equals = string.firstIndex(of: UInt8(ascii: "=")) else { return (string, nil) }
        return (Array(string[..<equals]), Array(string[(equals + 1)...]))
    }

    private static func lowercasedASCII(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}

extension DNSSDTXTRecord: WireCodable {
    /// Reads strings until `reader` ends; a length octet that runs past the end is an error.
    public init(from reader: inout WireReader) throws(WireError) {
        strings = []
        while !reader.isAtEnd {
            let length = Int(try reader.readUInt8("TXT String Length"))
            strings.append(try reader.readBytes(length, "TXT String"))
        }
    }

    public func write(to writer: inout WireWriter) {
        for string in strings {
            writer.withLength8 { $0.write(string) }
        }
    }
}

extension DNSSDTXTRecord: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            DecodedField(
                "strings",
                "Strings",
                .list(
                    strings.map { string in
                        Self.utf8String(string).map { .text($0) } ?? .bytes(string)
                    }
                )
            )
        ]
    }
}
