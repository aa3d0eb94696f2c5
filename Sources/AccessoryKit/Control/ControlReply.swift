import AwareCore
import AwareWire

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
