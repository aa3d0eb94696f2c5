import AwareCore
import Testing

/// The one JSON path against RFC 8259 and hand-written text, not against itself.
@Suite struct JSONValueTests {
    /// RFC 8259 section 13, the first example, parsed member by member.
    @Test func parsesTheRFCExample() throws {
        let text = """
            {
              "Image": {
                "Width":  800,
                "Height": 600,
                "Title":  "View from 15th Floor",
                "Thumbnail": {
                  "Url":    "http://www.example.com/image/481989943",
                  "Height": 125,
                  "Width":  100
                },
                "Animated": false,
                "IDs": [116, 943, 234, 38793]
              }
            }
            """
        let value = try JSONValue(parsing: text)
        let image = try #require(value["Image"])
        #expect(image["Width"] == .integer(800))
        #expect(image["Title"]?.stringValue == "View from 15th Floor")
        #expect(image["Thumbnail"]?["Url"]?.stringValue == "http://www.example.com/image/481989943")
        #expect(image["Animated"] == .bool(false))
        #expect(image["IDs"] == .array([.integer(116), .integer(943), .integer(234), .integer(38793)]))
        #expect(image.objectValue?.map(\.0) == ["Width", "Height", "Title", "Thumbnail", "Animated", "IDs"])
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, 3, "appears twice"),
        ("[1, 2,]", 1, 7, "trailing comma"),
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[01]", 1, 2, "leading zeros"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("[1]\n x", 2, 2, "after the end"),
        ("\"\\ud800\"", 1, 8, "low surrogate"),
        ("\"a\tb\"", 1, 3, "control character"),
        ("[1e400]", 1, 2, "out of range"),
        ("", 1, 1, "empty"),
        ("[tru]", 1, 2, "unknown word"),
        ("{\"k\" 1}", 1, 6, "`:`"),
    ])
    func refusesWithLineAndColumn(text: String, line: Int, column: Int, reason: String) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.line == line && error.column == column && error.reason.contains(reason)
        }
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        let deep =
            String(repeating: "[", count: JSONValue.maximumDepth + 1)
            + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
        let deepest =
            String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: deepest) }
    }

    @Test func numbersStayExact() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .integer(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(.min))
        #expect(try JSONValue(parsing: "18446744073709551615") == .unsigned(.max))
        #expect(try JSONValue(parsing: "18446744073709551616") == .double(18_446_744_073_709_551_616))
        #expect(try JSONValue(parsing: "1.0") == .double(1))
        #expect(try JSONValue(parsing: "1.0").integerValue == 1)
        #expect(try JSONValue(parsing: "1.5").integerValue == nil)
        #expect(try JSONValue(parsing: "-0.25e2") == .double(-25))
        #expect(try JSONValue(parsing: "true").integerValue == nil)
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let value = try JSONValue(parsing: #""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#)
        #expect(value.stringValue == "\"\\/\u{08}\u{0C}\n\r\té😀")
        // A byte-order mark before the text is allowed (RFC 8259 8.1 lets parsers ignore it).
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    /// Written by hand: what Python's `json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False)`
    /// prints for this value.
    @Test func serializesCompactAndPretty() {
        let value = JSONValue.object([
            ("b", .array([.integer(1), .string("x\n\"y\""), .null])),
            ("a", .object([("z", .bool(true)), ("é", .double(0.5))])),
            ("c", .array([])),
            ("d", .object([])),
            ("e", .unsigned(.max)),
        ])
        #expect(
            value.serialized
                == #"{"b":[1,"x\n\"y\"",null],"a":{"z":true,"é":0.5},"c":[],"d":{},"e":18446744073709551615}"#
        )
        let pretty = """
            {
              "a": {
                "z": true,
                "é": 0.5
              },
              "b": [
                1,
                "x\\n\\"y\\"",
                null
              ],
              "c": [],
              "d": {},
              "e": 18446744073709551615
            }
            """
        #expect(value.serialized([.prettyPrinted, .sortedKeys]) == pretty)
        #expect(JSONValue.quoted("tab\there\u{01}") == #""tab\there\u0001""#)
    }

    @Test func serializedTextParsesBack() throws {
        let value = JSONValue.object([
            ("k", .array([.integer(-3), .double(2.5), .string("ü\u{7F}\u{1F}"), .bool(false), .null]))
        ])
        #expect(try JSONValue(parsing: value.serialized) == value)
        #expect(try JSONValue(parsing: value.serialized([.prettyPrinted])) == value)
    }

    private struct Record: Codable, Equatable {
        var name: String
        var count: UInt64
        var ratio: Double
        var tags: [String]
        var nested: [Nested]
        var optional: Int?
        struct Nested: Codable, Equatable {
            var on: Bool
        }
    }

    @Test func codableTypesGoThroughTheOneValue() throws {
        let record = Record(
            name: "drone",
            count: .max,
            ratio: 0.25,
            tags: ["a", "b"],
            nested: [.init(on: true)],
            optional: nil
        )
        let value = try JSONValueEncoder().encode(record)
        #expect(
            value.serialized
                == #"{"name":"drone","count":18446744073709551615,"ratio":0.25,"tags":["a","b"],"nested":[{"on":true}]}"#
        )
        #expect(try JSONValueDecoder().decode(Record.self, from: Array(value.serialized.utf8)) == record)
    }

    @Test func decodingErrorsNameThePath() throws {
        let text = #"{"name":"x","count":-1,"ratio":1,"tags":[],"nested":[]}"#
        #expect {
            try JSONValueDecoder().decode(Record.self, from: Array(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["count"]
        }
        let wrongType = #"{"name":"x","count":1,"ratio":1,"tags":[1],"nested":[]}"#
        #expect {
            try JSONValueDecoder().decode(Record.self, from: Array(wrongType.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["tags", "[0]"]
        }
        // Null where a value is needed is `valueNotFound`, as with Foundation's decoder.
        let null = #"{"name":null,"count":1,"ratio":1,"tags":[],"nested":[]}"#
        #expect {
            try JSONValueDecoder().decode(Record.self, from: Array(null.utf8))
        } throws: { error in
            guard case DecodingError.valueNotFound(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["name"]
        }
        #expect {
            try JSONValueDecoder().decode(Record.self, from: Array(#"{"name": }"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return (context.underlyingError as? JSONSyntaxError)?.line == 1
        }
    }
}
