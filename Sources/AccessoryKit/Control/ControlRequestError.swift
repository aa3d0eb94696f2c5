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
