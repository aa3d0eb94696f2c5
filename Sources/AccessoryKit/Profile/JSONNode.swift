/// A parsed JSON value that keeps what the profile checks need and `JSONSerialization` loses:
/// member order, duplicate keys, the difference between `true` and `1`, and each number's text.
indirect enum JSONNode: Sendable {
    struct Member: Sendable {
        var key: String
        var value: JSONNode
    }

    struct Number: Sendable {
        /// The number as written, for messages.
        var text: String
        var value: Double

        /// The value as an Int when it is integral and fits (JSON Schema's "integer": 1.0 counts).
        var integer: Int? {
            guard value.isFinite, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
            return Int(value)
        }

        /// Integral but outside Int's exact range: still an "integer" to JSON Schema.
        var isIntegral: Bool { value.isFinite && value.rounded() == value }
    }

    case null
    case bool(Bool)
    case number(Number)
    case string(String)
    case array([JSONNode])
    case object([Member])

    /// What the value is, in the words the messages use ("a string", "a list").
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// A short JSON rendering for messages; long strings and containers are abbreviated.
    var excerpt: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let number): return number.text
        case .string(let text):
            let scalars = text.unicodeScalars
            if scalars.count > 60 {
                var head = String.UnicodeScalarView()
                head.append(contentsOf: scalars.prefix(57))
                return Self.quoted(String(head)) + "…"
            }
            return Self.quoted(text)
        case .array(let items): return items.isEmpty ? "[]" : "[…]"
        case .object(let members): return members.isEmpty ? "{}" : "{…}"
        }
    }

    /// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by value,
    /// objects regardless of member order.
    func sameValue(as other: JSONNode) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a.value == b.value
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key == member.key && $0.value.sameValue(as: member.value) }
            }
        default: return false
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 0xF, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
