/// Where a JSON text breaks RFC 8259, by line and column (both from 1; the column counts
/// Unicode scalars), and why.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting `init(parsing:)` accepts: more than any document here needs, and the
    /// limit keeps hostile input off the stack.
    public static let maximumDepth = JSONReader.maximumDepth

    /// Parses one JSON text (RFC 8259): strict grammar (no comments, no trailing commas, no
    /// leading zeros), UTF-8 with an optional byte-order mark, every object key once.
    /// Integer literals become `.integer` or `.unsigned`; other numbers `.double`.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        self = try JSONReader.parse(Array(bytes))
    }

    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONReader.parse(Array(text.utf8))
    }
}

/// The parser behind `JSONValue(parsing:)`.
struct JSONReader {
    /// Deeper nesting than any profile needs; the limit keeps hostile input off the stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONReader(bytes)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
        parser.skipWhitespace()
        guard parser.at < parser.bytes.count else {
            throw parser.error("the text is empty; a JSON value is missing")
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.at == parser.bytes.count else {
            throw parser.error("unexpected text after the end of the JSON value")
        }
        return value
    }

    private func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? at, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard at < bytes.count else { throw error("unexpected end of file; a value is missing") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw error("unexpected character \(describe(bytes[at])); expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        return "0x" + String(byte, radix: 16)
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes.count - at >= expected.count, Array(bytes[at..<(at + expected.count)]) == expected else {
            throw error("unknown word; expected a value (strings need double quotes)")
        }
        at += expected.count
        return value
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        at += 1
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        skipWhitespace()
        if at < bytes.count && bytes[at] == UInt8(ascii: "}") {
            at += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard at < bytes.count else { throw error("unexpected end of file inside an object") }
            guard bytes[at] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes (a trailing comma is not allowed)")
            }
            let keyStart = at
            let key = try parseString()
            // RFC 8259 4: names "SHOULD be unique"; a second value for a key is refused rather
            // than silently winning or losing, as readers disagree on which one counts.
            guard keys.insert(key).inserted else {
                throw error("the key \(JSONValue.quoted(key)) appears twice in this object", at: keyStart)
            }
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected `:` after the key") }
            at += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard at < bytes.count else { throw error("unexpected end of file inside an object; `}` is missing") }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "}") else { throw error("expected `,` or `}` after a member") }
            at += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        at += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if at < bytes.count && bytes[at] == UInt8(ascii: "]") {
            at += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if at < bytes.count && bytes[at] == UInt8(ascii: "]") {
                throw error("a trailing comma is not allowed")
            }
            items.append(try parseValue())
            skipWhitespace()
            guard at < bytes.count else { throw error("unexpected end of file inside a list; `]` is missing") }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "]") else { throw error("expected `,` or `]` after a list item") }
            at += 1
            depth -= 1
            return .array(items)
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = at
        at += 1
        var scalars = String.UnicodeScalarView()
        var run = at
        func flush(_ end: Int) throws(JSONSyntaxError) {
            guard run < end else { return }
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                throw error("the string is not valid UTF-8", at: run)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard at < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                try flush(at)
                at += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character must be escaped inside a string") }
            if byte != UInt8(ascii: "\\") {
                at += 1
                continue
            }
            try flush(at)
            at += 1
            guard at < bytes.count else { throw error("unterminated string", at: start) }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
            default: throw error("unknown escape sequence", at: at - 2)
            }
            run = at
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - at >= 4 else { throw error("`\\u` needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[at]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("`\\u` needs four hex digits")
            }
            value = value << 4 | digit
            at += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try parseHex4()
        var value = first
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - at >= 2, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw error("a high surrogate escape must be followed by a low surrogate escape")
            }
            at += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("a high surrogate escape must be followed by a low surrogate escape")
            }
            value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("a lone surrogate escape is not a character") }
        return scalar
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = at
        func digits() -> Int {
            let from = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - from
        }
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) else {
            throw error("a number needs digits", at: start)
        }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
                throw error("numbers must not have leading zeros", at: start)
            }
        } else {
            _ = digits()
        }
        var fractionOrExponent = false
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            fractionOrExponent = true
            at += 1
            guard digits() > 0 else { throw error("a decimal point must be followed by digits", at: start) }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            fractionOrExponent = true
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw error("an exponent must have digits", at: start) }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        if !fractionOrExponent {
            // Integers stay exact: an Int64 when it fits, a UInt64 above that (identifiers and
            // counters), a Double only beyond both.
            if let value = Int64(text) { return .integer(value) }
            if let value = UInt64(text) { return .unsigned(value) }
        }
        guard let value = Double(text), value.isFinite else {
            throw error("the number is out of range", at: start)
        }
        return .double(value)
    }
}
