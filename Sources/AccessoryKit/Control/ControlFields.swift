import AwareWire

/// The members of a control object, taken one by one so that whatever is left over is a field
/// the command does not know.
struct ControlFields {
    var members: [JSONNode.Member]
    var command = ""

    init(members: [JSONNode.Member]) {
        self.members = members
    }

    /// Removes and returns the first member called `key` (a later duplicate is then left over).
    mutating func take(_ key: String) -> JSONNode? {
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: index).value
    }

    func refuseLeftovers() throws(ControlRequestError) {
        if let first = members.first { throw .unknownField(command: command, field: first.key) }
    }

    mutating func requiredString(_ key: String) throws(ControlRequestError) -> String {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard case .string(let text) = node else {
            throw .wrongType(command: command, field: key, expected: "a string", found: node.kindName)
        }
        return text
    }

    mutating func optionalString(_ key: String) throws(ControlRequestError) -> String? {
        guard let node = take(key), !node.isNull else { return nil }
        guard case .string(let text) = node else {
            throw .wrongType(command: command, field: key, expected: "a string", found: node.kindName)
        }
        return text
    }

    /// A finite number within `range`.
    mutating func number(
        _ key: String,
        in range: ClosedRange<Double>,
        default fallback: Double? = nil
    ) throws(ControlRequestError) -> Double {
        guard let node = take(key), !node.isNull else {
            if let fallback { return fallback }
            throw .missingField(command: command, field: key)
        }
        guard case .number(let number) = node else {
            throw .wrongType(command: command, field: key, expected: "a number", found: node.kindName)
        }
        guard range.contains(number.value) else {
            throw .invalidValue(
                command: command,
                field: key,
                reason: "must be between \(range.lowerBound) and \(range.upperBound), not \(number.text)"
            )
        }
        return number.value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard case .number(let number) = node, let value = number.integer else {
            throw .wrongType(command: command, field: key, expected: "an integer", found: node.kindName)
        }
        guard range.contains(value) else {
            throw .invalidValue(
                command: command,
                field: key,
                reason: "must be between \(range.lowerBound) and \(range.upperBound), not \(value)"
            )
        }
        return value
    }

    mutating func stringList(_ key: String) throws(ControlRequestError) -> [String] {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard case .array(let items) = node else {
            throw .wrongType(command: command, field: key, expected: "a list of strings", found: node.kindName)
        }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                throw .wrongType(
                    command: command,
                    field: key,
                    expected: "a list of strings",
                    found: "a list holding \(item.kindName)"
                )
            }
            strings.append(text)
        }
        return strings
    }

    mutating func stringMap(_ key: String) throws(ControlRequestError) -> [String: String] {
        guard let node = take(key), !node.isNull else { return [:] }
        guard case .object(let entries) = node else {
            throw .wrongType(command: command, field: key, expected: "an object of strings", found: node.kindName)
        }
        var map: [String: String] = [:]
        for entry in entries {
            guard case .string(let text) = entry.value else {
                throw .wrongType(
                    command: command,
                    field: "\(key).\(entry.key)",
                    expected: "a string",
                    found: entry.value.kindName
                )
            }
            guard map.updateValue(text, forKey: entry.key) == nil else {
                throw .invalidValue(command: command, field: key, reason: "has the key \"\(entry.key)\" twice")
            }
        }
        return map
    }
}

extension JSONNode {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
