/// `Codable` types onto `JSONValue` and back, so that the files this package keeps (pairings,
/// identity) and the reports it prints go through the one JSON parser and serializer instead of
/// Foundation's. Keys come out in the order the type encodes them; `serialized([.sortedKeys])`
/// orders them. Errors are the standard `EncodingError` and `DecodingError`, with the coding path.
public struct JSONValueEncoder: Sendable {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = EncodedNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }
}

public struct JSONValueDecoder: Sendable {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }

    /// Parses `bytes` and decodes them; a syntax error comes out as `DecodingError.dataCorrupted`
    /// whose underlying error is the `JSONSyntaxError` (line and column).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: error.description, underlyingError: error)
            )
        }
        return try decode(type, from: value)
    }
}

// MARK: - Encoding

/// One value under construction; containers share it by reference, as `Encoder` requires.
private final class EncodedNode {
    enum Content {
        case unset
        case value(JSONValue)
        case object([(String, EncodedNode)])
        case array([EncodedNode])
    }

    var content: Content = .unset

    var value: JSONValue {
        switch content {
        case .unset: .object([])
        case .value(let value): value
        case .object(let members): .object(members.map { ($0.0, $0.1.value) })
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    func member(_ key: String) -> EncodedNode {
        var members: [(String, EncodedNode)] = []
        if case .object(let existing) = content { members = existing }
        if let found = members.first(where: { $0.0 == key }) { return found.1 }
        let node = EncodedNode()
        members.append((key, node))
        content = .object(members)
        return node
    }

    func appended() -> EncodedNode {
        var elements: [EncodedNode] = []
        if case .array(let existing) = content { elements = existing }
        let node = EncodedNode()
        elements.append(node)
        content = .array(elements)
        return node
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedNodeEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeEncoder(node: node, codingPath: codingPath)
    }
}

/// The JSON value of a primitive, or nil when `value` is not one (it then encodes itself).
private func primitive(_ value: some Encodable) -> JSONValue? {
    switch value {
    case let value as String: .string(value)
    case let value as Bool: .bool(value)
    case let value as Double: .double(value)
    case let value as Float: .double(Double(value))
    case let value as Int: .integer(Int64(value))
    case let value as Int8: .integer(Int64(value))
    case let value as Int16: .integer(Int64(value))
    case let value as Int32: .integer(Int64(value))
    case let value as Int64: .integer(value)
    case let value as UInt8: .integer(Int64(value))
    case let value as UInt16: .integer(Int64(value))
    case let value as UInt32: .integer(Int64(value))
    case let value as UInt: Int64(exactly: value).map(JSONValue.integer) ?? .unsigned(UInt64(value))
    case let value as UInt64: Int64(exactly: value).map(JSONValue.integer) ?? .unsigned(value)
    default: nil
    }
}

private func encode(_ value: some Encodable, into node: EncodedNode, codingPath: [any CodingKey]) throws {
    if let json = primitive(value) {
        node.content = .value(json)
    } else {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedNodeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .value(.null) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try AwareCore.encode(value, into: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return UnkeyedNodeEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.member("super"), codingPath: codingPath + [IndexKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeEncoder: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    mutating func encodeNil() throws { node.appended().content = .value(.null) }

    mutating func encode(_ value: some Encodable) throws {
        let path = nextPath
        try AwareCore.encode(value, into: node.appended(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<
        NestedKey
    > {
        let path = nextPath
        let child = node.appended()
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = node.appended()
        child.makeArray()
        return UnkeyedNodeEncoder(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path)
    }
}

private struct SingleNodeEncoder: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode(_ value: some Encodable) throws {
        try AwareCore.encode(value, into: node, codingPath: codingPath)
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "[\(intValue)]"
        self.intValue = intValue
    }
}

// MARK: - Decoding

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = value.objectValue else { throw mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedValueDecoder<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = value.arrayValue else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedValueDecoder(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoder(value: value, codingPath: codingPath)
    }
}

/// A value of the wrong kind: `valueNotFound` for null where a value is needed (as Foundation's
/// decoder has it, so "is null" can be told from "has the wrong type"), else `typeMismatch`.
private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    let context = DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(value.kindName)")
    return value == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
}

/// `value` as a `T`: primitives are read here (numbers must fit exactly), anything else
/// decodes itself from a nested decoder.
private func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        let exact: I? =
            switch value {
            case .integer(let v): I(exactly: v)
            case .unsigned(let v): I(exactly: v)
            case .double(let v): v.isFinite && v.rounded() == v ? I(exactly: v) : nil
            default: nil
            }
        guard let exact else {
            if value.isNumber {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "the number \(value.serialized) does not fit \(I.self)")
                )
            }
            throw mismatch(I.self, value, path)
        }
        return exact
    }
    let result: Any
    switch type {
    case is String.Type:
        guard let string = value.stringValue else { throw mismatch(String.self, value, path) }
        result = string
    case is Bool.Type:
        guard let bool = value.boolValue else { throw mismatch(Bool.self, value, path) }
        result = bool
    case is Double.Type:
        guard let double = value.doubleValue else { throw mismatch(Double.self, value, path) }
        result = double
    case is Float.Type:
        guard let double = value.doubleValue else { throw mismatch(Float.self, value, path) }
        result = Float(double)
    case is Int.Type: result = try integer(Int.self)
    case is Int8.Type: result = try integer(Int8.self)
    case is Int16.Type: result = try integer(Int16.self)
    case is Int32.Type: result = try integer(Int32.self)
    case is Int64.Type: result = try integer(Int64.self)
    case is UInt.Type: result = try integer(UInt.self)
    case is UInt8.Type: result = try integer(UInt8.self)
    case is UInt16.Type: result = try integer(UInt16.self)
    case is UInt32.Type: result = try integer(UInt32.self)
    case is UInt64.Type: result = try integer(UInt64.self)
    default: return try T(from: ValueDecoder(value: value, codingPath: path))
    }
    return result as! T  // The switch matched T exactly.
}

private struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

    private func member(_ key: Key) throws -> JSONValue {
        guard let found = members.first(where: { $0.0 == key.stringValue }) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "no member \(JSONValue.quoted(key.stringValue))")
            )
        }
        return found.1
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try AwareCore.decode(type, try member(key), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: self["super"] ?? .null, codingPath: codingPath + [IndexKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try member(key), codingPath: codingPath + [key])
    }

    private subscript(name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
}

private struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the list has ended"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try AwareCore.decode(type, value, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next([String: JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleValueDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try AwareCore.decode(type, value, codingPath) }
}
