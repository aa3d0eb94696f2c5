import AwareCore
import AwareWire

extension DecodedValue {
    /// The JSON form: numbers stay numbers, byte strings are lower-case hex, enumerations
    /// are `{"value": n, "name": "..."}`, nested structures are objects.
    public var json: JSONValue {
        switch self {
        case .unsigned(let v): .unsigned(v)
        case .bits(let v, _): .unsigned(v)
        case .flag(let v): .bool(v)
        case .bytes(let v): .string(HexString.encode(v))
        case .text(let v): .string(v)
        case .address(let v): .string(v.description)
        case .named(let v, let name): .object([("value", .unsigned(v)), ("name", .string(name))])
        case .fields(let fields): fields.json
        case .list(let values): .array(values.map(\.json))
        }
    }

    /// The value as one line of text for people, or nil for nested structures and lists.
    public var inlineText: String? {
        switch self {
        case .unsigned(let v): String(v)
        case .bits(let v, let digits): "0x" + Self.hex(v, digits: digits)
        case .flag(let v): v ? "yes" : "no"
        case .bytes(let v): v.isEmpty ? "(empty)" : HexString.encode(v)
        case .text(let v): "\"\(v)\""
        case .address(let v): v.description
        case .named(let v, let name): "\(name) (\(v))"
        case .fields, .list: nil
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let raw = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - raw.count)) + raw
    }
}

extension [DecodedField] {
    /// An object with one member per field, in order.
    public var json: JSONValue { .object(map { ($0.key, $0.value.json) }) }

    /// An indented tree, one field per line, like `tshark -V`.
    public func renderText(indent: Int = 0) -> [String] {
        var lines: [String] = []
        let pad = String(repeating: "    ", count: indent)
        for field in self {
            switch field.value {
            case .fields(let nested):
                lines.append("\(pad)\(field.label)")
                lines += nested.renderText(indent: indent + 1)
            case .list(let values):
                lines.append("\(pad)\(field.label): \(values.count) item\(values.count == 1 ? "" : "s")")
                for (i, value) in values.enumerated() {
                    if case .fields(let nested) = value {
                        // Name the item after its first field when that is an enumeration
                        // ("[0] Service Descriptor (3)"), as attribute and element lists are.
                        var heading = "\(pad)    [\(i)]"
                        if case .named = nested.first?.value, let name = nested.first?.value.inlineText {
                            heading += " \(name)"
                        }
                        lines.append(heading)
                        lines += nested.renderText(indent: indent + 2)
                    } else {
                        lines.append("\(pad)    [\(i)] \(value.inlineText ?? "")")
                    }
                }
            default:
                lines.append("\(pad)\(field.label): \(field.value.inlineText ?? "")")
            }
        }
        return lines
    }
}
