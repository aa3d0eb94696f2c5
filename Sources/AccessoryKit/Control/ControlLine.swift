import AwareCore
import AwareWire

/// A control line as received: the request and the caller's `"id"`, echoed in the reply so a
/// client that pipelines requests can pair them up.
public struct ControlLine: Hashable, Sendable {
    /// A line longer than this is refused without being parsed.
    public static let maximumLineLength = 65_536

    public var id: JSONValue?
    /// On a lockstep air, the virtual time (ns) the command takes effect at: the sender's time
    /// when it sent it, as a frame's is (docs/reference/control.md). Elsewhere ignored.
    public var at: UInt64?
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
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
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
        case let other?:
            guard let integer = other.integerValue else {
                throw .wrongType(
                    command: command,
                    field: "id",
                    expected: "a string or an integer",
                    found: other.kindName
                )
            }
            id = .integer(integer)
        }
        var at: UInt64?
        if let node = fields.take("at") {
            guard let value = node.integerValue, value >= 0, node.isIntegral else {
                throw .wrongType(
                    command: command,
                    field: "at",
                    expected: "a whole number of nanoseconds",
                    found: node.kindName
                )
            }
            at = UInt64(value)
        }
        fields.command = command
        let request = try ControlRequest(command: command, fields: &fields)
        try fields.refuseLeftovers()
        var line = ControlLine(id: id, request: request)
        line.at = at
        return line
    }
}

// MARK: - ControlReply

/// The answer to one control line: exactly one JSON line per request, `{"id":…, "ok":true,
/// "command":"status", "result":{…}}` or `{"id":…, "ok":false, "error":{"code":…, "message":…}}`
/// (docs/reference/control.md).
public struct ControlReply: Hashable, Sendable {
    public var id: JSONValue?
    /// The command answered; nil when the line was not a command at all.
    public var command: String?
    public var outcome: Result<JSONValue, ControlFailure>

    public init(id: JSONValue?, command: String?, outcome: Result<JSONValue, ControlFailure>) {
        self.id = id
        self.command = command
        self.outcome = outcome
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", id)) }
        switch outcome {
        case .success(let result):
            members.append(("ok", .bool(true)))
            if let command { members.append(("command", .string(command))) }
            members.append(("result", result))
        case .failure(let failure):
            members.append(("ok", .bool(false)))
            if let command { members.append(("command", .string(command))) }
            members.append(
                ("error", .object([("code", .string(failure.code)), ("message", .string(failure.message))]))
            )
        }
        return .object(members)
    }

    /// The reply as one line, without its newline.
    public var line: String { json.serialized }
}

// MARK: - ControlFailure

/// A well-formed control request the accessory could not carry out (a service it does not
/// publish, a state directory it cannot write): the reply's `error`, with a stable `code`.
public struct ControlFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: ControlRequestError) {
        self.init(code: error.code, message: error.description)
    }

    public var description: String { message }
}

// MARK: - ControlRequestError

/// Why a control line was refused, with what and where: the reply's `error.code` and
/// `error.message` (docs/reference/control.md). The accessory keeps running whatever arrives.
public enum ControlRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than ``ControlLine/maximumLineLength`` octets.
    case tooLong(length: Int)
    /// Not JSON: the column of the first syntax error and why.
    case notJSON(column: Int, reason: String)
    /// JSON, but not an object.
    case notAnObject(found: String)
    /// No `"command"`, or not a string.
    case missingCommand
    case unknownCommand(String)
    /// A member the command needs is missing.
    case missingField(command: String, field: String)
    /// A member has the wrong JSON type.
    case wrongType(command: String, field: String, expected: String, found: String)
    /// A member has a value outside what the command accepts.
    case invalidValue(command: String, field: String, reason: String)
    /// A member the command does not know (a typo would otherwise be silently ignored).
    case unknownField(command: String, field: String)

    /// Stable, machine-readable: scripts branch on it.
    public var code: String {
        switch self {
        case .tooLong: "too-long"
        case .notJSON: "not-json"
        case .notAnObject: "not-an-object"
        case .missingCommand: "missing-command"
        case .unknownCommand: "unknown-command"
        case .missingField: "missing-field"
        case .wrongType: "wrong-type"
        case .invalidValue: "invalid-value"
        case .unknownField: "unknown-field"
        }
    }

    public var description: String {
        switch self {
        case .tooLong(let length):
            "the line is \(length) octets long; a control line holds at most \(ControlLine.maximumLineLength)"
        case .notJSON(let column, let reason): "not JSON at column \(column): \(reason)"
        case .notAnObject(let found): "a control line is a JSON object, not \(found)"
        case .missingCommand: "the object has no \"command\" string"
        case .unknownCommand(let name):
            "unknown command \"\(name)\"; known: \(ControlRequest.commandNames.joined(separator: ", "))"
        case .missingField(let command, let field): "\(command) needs \"\(field)\""
        case .wrongType(let command, let field, let expected, let found):
            "\(command): \"\(field)\" must be \(expected), not \(found)"
        case .invalidValue(let command, let field, let reason): "\(command): \"\(field)\" \(reason)"
        case .unknownField(let command, let field): "\(command) has no field \"\(field)\""
        }
    }
}
