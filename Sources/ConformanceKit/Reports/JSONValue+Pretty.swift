import AwareCore
import AwareWire

extension JSONValue {
    /// An object with its keys in sorted order: how every object of the reports and events is built,
    /// so their bytes depend only on their content.
    static func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.keys.sorted().map { ($0, members[$0, default: .null]) })
    }

    /// The value as indented JSON text (two spaces), for files people also read.
    var prettyJSON: String {
        var text = ""
        writePretty(to: &text, indent: "")
        return text
    }

    private func writePretty(to text: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let values) where !values.isEmpty:
            text += "[\n"
            for (index, value) in values.enumerated() {
                text += (index > 0 ? ",\n" : "") + inner
                value.writePretty(to: &text, indent: inner)
            }
            text += "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, (key, value)) in members.enumerated() {
                text += (index > 0 ? ",\n" : "") + inner + JSONValue.string(key).serialized + ": "
                value.writePretty(to: &text, indent: inner)
            }
            text += "\n" + indent + "}"
        default:
            text += serialized
        }
    }
}
