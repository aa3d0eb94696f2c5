/// A JSON value (RFC 8259) whose objects keep their key order, so that machine output is
/// stable and reads in the same order as the protocol lays the fields out.
///
/// The package's one JSON path: every JSON document it reads is parsed into a `JSONValue`
/// (`init(parsing:)`, with line and column on error and duplicate keys refused), and every one
/// it writes is serialized from one (`serialized`, `serialized(_:)`). `JSONValueEncoder` and
/// `JSONValueDecoder` map `Codable` types onto it.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let v): hasher.combine(v)
        case .integer(let v): hasher.combine(v)
        case .unsigned(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .array(let v): hasher.combine(v)
        case .object(let v):
            for (key, value) in v {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// How `serialized(_:)` lays the text out.
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// One member or element per line, indented by two spaces, `"key": value` (the layout of
        /// Python's `json.dumps(value, indent=2)`).
        public static let prettyPrinted = WritingOptions(rawValue: 1)
        /// Object members in code-point order of their keys rather than in insertion order.
        public static let sortedKeys = WritingOptions(rawValue: 2)
    }

    /// JSON text laid out as `options` say; `serialized(_: [])` is `serialized`.
    public func serialized(_ options: WritingOptions) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, options: options, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact JSON text (one line), as JSON-lines output needs.
    public var serialized: String {
        // Written as UTF-8 octets and decoded once: appending to a String piece by piece
        // dominated `decode --json` profiles (aware-bench decode-throughput).
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, options: [], indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], options: WritingOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        func newline(_ level: Int) {
            guard pretty else { return }
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch self {
        case .null: out += "null".utf8
        case .bool(let v): out += (v ? "true" : "false").utf8
        case .integer(let v): out += String(v).utf8
        case .unsigned(let v): out += String(v).utf8
        case .double(let v): out += (v.isFinite ? String(v) : "null").utf8
        case .string(let v): Self.writeString(v, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                value.write(to: &out, options: options, indent: indent + 1)
            }
            if !values.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let unordered):
            let members = options.contains(.sortedKeys) ? Self.sorted(unordered) : unordered
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                Self.writeString(key, to: &out)
                out += (pretty ? ": " : ":").utf8
                value.write(to: &out, options: options, indent: indent + 1)
            }
            if !members.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Members ordered by the Unicode scalars of their keys, as Foundation's `.sortedKeys` does.
    private static func sorted(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        members.sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
    }

    /// `text` as a JSON string literal, quotes included: the one JSON escaper (messages that
    /// quote a value use it too).
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Escapes octet by octet: every octet of a multi-octet UTF-8 sequence is 0x80 or more,
    /// so only ASCII quote, backslash and control characters are ever touched (RFC 8259, 7).
    /// Strings with none of them (keys, names, hex: nearly all) are copied in one go.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { octets in
            guard octets.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: octets)
                return
            }
            for octet in octets {
                switch octet {
                case UInt8(ascii: "\""): out += #"\""#.utf8
                case UInt8(ascii: "\\"): out += #"\\"#.utf8
                case UInt8(ascii: "\n"): out += #"\n"#.utf8
                case UInt8(ascii: "\r"): out += #"\r"#.utf8
                case UInt8(ascii: "\t"): out += #"\t"#.utf8
                case 0..<0x20: out += ("\\u00" + HexString.byte(octet)).utf8
                default: out.append(octet)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

// MARK: - Reading values

extension JSONValue {
    /// The member called `key` when this is an object, else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as a whole number when it is one that fits an `Int64`: an integer literal, or a
    /// number with a fraction or exponent whose value is integral (JSON Schema counts `1.0`).
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsigned(let value): return Int64(exactly: value)
        case .double(let value):
            guard value.isFinite, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// Any number, as a `Double` (large integers round).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .unsigned(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var isNumber: Bool { doubleValue != nil }

    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var objectValue: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// What the value is, in the words messages use ("a string", "a list").
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .unsigned, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
