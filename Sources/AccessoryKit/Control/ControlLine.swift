import AwareCore
import AwareWire

/// A control line as received: the request and the caller's `"id"`, echoed in the reply so a
/// client that pipelines requests can pair them up.
public struct ControlLine: Hashable, Sendable {
    /// A line longer than this is refused without being parsed.
    public static let maximumLineLength = 65_536

    public var id: JSONValue?
    public var request: ControlRequest

    public init(id: JSONValue? = nil, request: ControlRequest) {
        self.id = id
        self.request = request
    }

    /// Parses one line (without its newline). Never traps, whatever the bytes.
    public static func parse(_ line: some Collection<UInt8>) throws(ControlRequestError) -> ControlLine {
        guard line.count <= maximumLineLength else { throw .tooLong(length: line.count) }
        let bytes = Array(line)
        guard bytes.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else {
            throw .notJSON(column: 1, reason: "the line is empty")
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .notJSON(column: error.column, reason: error.reason)
        }
        guard case .object(let members) = root else { throw .notAnObject(found: root.kindName) }
        var fields = ControlFields(members: members)
        guard case .string(let command)? = fields.take("command") else { throw .missingCommand }
        let id: JSONValue?
        switch fields.take("id") {
        case nil, .null?: id = nil
        case .string(let text)?: id = .string(text)
        case .number(let number)? where number.integer != nil: id = .integer(Int64(number.integer!))
        case let other?:
            throw .wrongType(command: command, field: "id", expected: "a string or an integer", found: other.kindName)
        }
        fields.command = command
        let request = try ControlRequest(command: command, fields: &fields)
        try fields.refuseLeftovers()
        return ControlLine(id: id, request: request)
    }
}
