import AwareCore

/// Reads a profile's JSON tree by the rules of Profiles/profile.schema.json, collecting every
/// problem as a `ProfileIssue` instead of stopping at the first.
///
/// Each `read…` method mirrors one schema keyword so the two cannot drift apart unnoticed: the
/// agreement test runs every fixture through both. Rules JSON Schema cannot state (octet counts,
/// uniqueness by a member, cross references) are marked "semantic" where they are checked.
struct ProfileReader {
    /// An object whose keys have been checked against the allowed and required lists.
    struct ObjectView {
        var path: String
        /// The value of each allowed key (the parser refuses a key given twice).
        var members: [String: JSONValue]

        func has(_ key: String) -> Bool { members[key] != nil }
        subscript(key: String) -> JSONValue? { members[key] }
        func path(_ key: String) -> String { ProfileReader.path(path, key) }
    }

    private(set) var issues: [ProfileIssue] = []

    mutating func report(_ path: String, _ node: JSONValue?, _ message: String) {
        issues.append(ProfileIssue(path: path, value: node?.excerpt, message: message))
    }

    static func path(_ parent: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "_" || scalar == "$"
            }
        if !plain { return parent + "[" + JSONValue.quoted(key) + "]" }
        return parent.isEmpty ? key : parent + "." + key
    }

    static func path(_ parent: String, index: Int) -> String { parent + "[\(index)]" }

    // MARK: Objects

    /// `type: object`, `additionalProperties: false`, `required`. (A key given twice never gets
    /// here: `JSONValue(parsing:)` refuses it as a syntax error, with its line and column.)
    mutating func object(_ node: JSONValue, at path: String, allowed: [String], required: [String]) -> ObjectView? {
        guard case .object(let list) = node else {
            report(path, node, "must be an object")
            return nil
        }
        var members: [String: JSONValue] = [:]
        for (key, value) in list {
            if allowed.contains(key) {
                members[key] = value
            } else {
                report(Self.path(path, key), nil, Self.unknownKeyMessage(key, allowed: allowed))
            }
        }
        for key in required where members[key] == nil {
            report(Self.path(path, key), nil, "is required")
        }
        return ObjectView(path: path, members: members)
    }

    /// An object whose keys are free (TXT entries): `type: object`, members in file order.
    mutating func members(_ node: JSONValue, at path: String) -> [(key: String, value: JSONValue)]? {
        guard case .object(let list) = node else {
            report(path, node, "must be an object")
            return nil
        }
        return list.map { (key: $0.0, value: $0.1) }
    }

    static func unknownKeyMessage(_ key: String, allowed: [String]) -> String {
        let known = allowed.filter { $0 != "$schema" }
        if let guess = known.first(where: { $0.lowercased() == key.lowercased() })
            ?? known.min(by: { editDistance($0, key) < editDistance($1, key) }).flatMap({
                editDistance($0, key) <= 2 ? $0 : nil
            })
        {
            return "unknown key; did you mean `\(guess)`?"
        }
        return "unknown key; allowed here: " + known.joined(separator: ", ")
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().unicodeScalars)
        let b = Array(b.lowercased().unicodeScalars)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where i <= a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(
                    previous[j] + 1,
                    current[j - 1] + 1,
                    previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                )
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: Scalars

    /// `type: string` with `minLength`/`maxLength` counted in code points, as JSON Schema counts.
    mutating func string(_ node: JSONValue, at path: String, minLength: Int = 0, maxLength: Int? = nil) -> String? {
        guard case .string(let text) = node else {
            report(path, node, "must be a string")
            return nil
        }
        let length = text.unicodeScalars.count
        if length < minLength {
            report(path, node, minLength == 1 ? "must not be empty" : "must be at least \(minLength) characters long")
            return nil
        }
        if let maxLength, length > maxLength {
            report(path, node, "is \(length) characters long; at most \(maxLength) are allowed")
            return nil
        }
        return text
    }

    mutating func string(_ view: ObjectView, _ key: String, minLength: Int = 0, maxLength: Int? = nil) -> String? {
        guard let node = view[key] else { return nil }
        return string(node, at: view.path(key), minLength: minLength, maxLength: maxLength)
    }

    /// `type: integer` (any integral number, as JSON Schema has it) with `minimum`/`maximum`.
    mutating func integer(_ node: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard node.isIntegral else {
            report(path, node, "must be a whole number")
            return nil
        }
        guard let value = node.integerValue.flatMap({ Int(exactly: $0) }), range.contains(value) else {
            report(path, node, "must be between \(range.lowerBound) and \(range.upperBound)")
            return nil
        }
        return value
    }

    mutating func integer(_ view: ObjectView, _ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let node = view[key] else { return nil }
        return integer(node, at: view.path(key), in: range)
    }

    /// `type: number`, `exclusiveMinimum: 0`, `maximum`.
    mutating func positiveNumber(_ view: ObjectView, _ key: String, maximum: Double) -> Double? {
        guard let node = view[key] else { return nil }
        guard let value = node.doubleValue else {
            report(view.path(key), node, "must be a number")
            return nil
        }
        guard value > 0, value <= maximum else {
            report(view.path(key), node, "must be greater than 0 and at most \(Self.format(maximum))")
            return nil
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    mutating func bool(_ view: ObjectView, _ key: String) -> Bool? {
        guard let node = view[key] else { return nil }
        guard case .bool(let value) = node else {
            report(view.path(key), node, "must be true or false")
            return nil
        }
        return value
    }

    /// `enum` of strings.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ node: JSONValue,
        at path: String,
        _ type: E.Type
    )
        -> E? where E.RawValue == String
    {
        if case .string(let text) = node, let value = E(rawValue: text) { return value }
        let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        report(path, node, "must be one of \(names)")
        return nil
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _ view: ObjectView,
        _ key: String,
        _ type: E.Type
    )
        -> E? where E.RawValue == String
    {
        guard let node = view[key] else { return nil }
        return enumeration(node, at: view.path(key), type)
    }

    // MARK: Lists

    /// `type: array`, `minItems`.
    mutating func array(_ view: ObjectView, _ key: String, minItems: Int) -> [JSONValue]? {
        guard let node = view[key] else { return nil }
        guard case .array(let items) = node else {
            report(view.path(key), node, "must be a list")
            return nil
        }
        if items.count < minItems {
            report(view.path(key), node, minItems == 1 ? "must not be empty" : "needs at least \(minItems) items")
            return nil
        }
        return items
    }

    /// `uniqueItems: true`: reports each repeat at its index. Returns whether all were unique.
    mutating func checkUnique(_ items: [JSONValue], at path: String) -> Bool {
        var unique = true
        for (index, item) in items.enumerated() {
            if let first = items[..<index].firstIndex(where: { $0.sameValue(as: item) }) {
                report(Self.path(path, index: index), item, "repeats item \(first); each item may appear once")
                unique = false
            }
        }
        return unique
    }

    /// A list of distinct enumeration values, at least one.
    mutating func enumerationList<E: RawRepresentable & CaseIterable>(
        _ view: ObjectView,
        _ key: String,
        _ type: E.Type
    )
        -> [E]? where E.RawValue == String
    {
        guard let items = array(view, key, minItems: 1) else { return nil }
        var values: [E] = []
        var valid = checkUnique(items, at: view.path(key))
        for (index, item) in items.enumerated() {
            if let value = enumeration(item, at: Self.path(view.path(key), index: index), type) {
                values.append(value)
            } else {
                valid = false
            }
        }
        return valid ? values : nil
    }

    // MARK: Semantic helpers

    /// A DNS-SD TXT value: 1-63 code points (schema) and at most 63 UTF-8 octets (semantic).
    mutating func txtValue(_ node: JSONValue, at path: String) -> String? {
        guard let text = string(node, at: path, minLength: 1, maxLength: 63) else { return nil }
        let octets = text.utf8.count
        if octets > 63 {
            report(path, node, "is \(octets) octets in UTF-8; a TXT value holds at most 63")
            return nil
        }
        return text
    }

    mutating func txtValue(_ view: ObjectView, _ key: String) -> String? {
        guard let node = view[key] else { return nil }
        return txtValue(node, at: view.path(key))
    }
}

// MARK: - JSONValue for profile checks

extension JSONValue {
    /// Integral, as JSON Schema's "integer" has it: `1.0` counts, and so does a whole number too
    /// large for an `Int`.
    var isIntegral: Bool {
        switch self {
        case .integer, .unsigned: true
        case .double(let value): value.isFinite && value.rounded() == value
        default: false
        }
    }

    /// A short JSON rendering for messages; long strings and containers are abbreviated. A
    /// number is shown as `serialized` renders its value.
    var excerpt: String {
        switch self {
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
        default: return serialized
        }
    }

    /// Equality as JSON Schema defines it for `enum`, `const` and `uniqueItems`: numbers by value,
    /// objects regardless of member order.
    func sameValue(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in b.contains { $0.0 == member.0 && $0.1.sameValue(as: member.1) } }
        default:
            if let a = doubleValue, let b = other.doubleValue { return a == b }
            return self == other
        }
    }
}
