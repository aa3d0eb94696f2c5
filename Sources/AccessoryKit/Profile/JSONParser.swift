/// A strict RFC 8259 parser for profile files. It reports the line and column of the first
/// syntax error, which `JSONSerialization` does not do on Linux.
struct JSONParser {
    struct SyntaxError: Error, Hashable, Sendable {
        var line: Int
        var column: Int
        var reason: String
    }

    /// Deeper nesting than any profile needs; the limit keeps hostile input off the stack.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.at = 3 }
        parser.skipWhitespace()
        guard parser.at < parser.bytes.count else {
            throw parser.error("the file is empty; a profile is a JSON object")
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.at == parser.bytes.count else {
            throw parser.error("unexpected text after the end of the JSON value")
        }
        return value
    }

    private func error(_ reason: String, at offset: Int? = nil) -> SyntaxError {
        let end = min(offset ?? at, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
        return SyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSONNode {
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

    private mutating func parseLiteral(_ word: String, _ value: JSONNode) throws(SyntaxError) -> JSONNode {
        let expected = Array(word.utf8)
        guard bytes.count - at >= expected.count, Array(bytes[at..<(at + expected.count)]) == expected else {
            throw error("unknown word; expected a value (strings need double quotes)")
        }
        at += expected.count
        return value
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONNode {
        try enter()
        at += 1
        var members: [JSONNode.Member] = []
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
            let key = try parseString()
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected `:` after the key") }
            at += 1
            skipWhitespace()
            members.append(JSONNode.Member(key: key, value: try parseValue()))
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

    private mutating func parseArray() throws(SyntaxError) -> JSONNode {
        try enter()
        at += 1
        var items: [JSONNode] = []
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

    private mutating func parseString() throws(SyntaxError) -> String {
        let start = at
        at += 1
        var scalars = String.UnicodeScalarView()
        var run = at
        func flush(_ end: Int) throws(SyntaxError) {
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

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
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

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
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

    private mutating func parseNumber() throws(SyntaxError) -> JSONNode {
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
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { throw error("a decimal point must be followed by digits", at: start) }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { throw error("an exponent must have digits", at: start) }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let value = Double(text) else { throw error("not a number", at: start) }
        return .number(JSONNode.Number(text: text, value: value))
    }
}
