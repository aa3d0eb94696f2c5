/// A JSON value whose objects keep their key order, so that machine output is stable
/// and reads in the same order as the protocol lays the fields out.
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

    /// Compact JSON text (one line), as JSON-lines output needs.
    public var serialized: String {
        // Written as UTF-8 octets and decoded once: appending to a String piece by piece
        // dominated `decode --json` profiles (aware-bench decode-throughput).
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8]) {
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
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
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
