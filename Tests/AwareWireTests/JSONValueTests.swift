import AwareCore
import Testing

@testable import AwareWire

/// JSON text and hex as `decode --json` writes them; strings with nothing to escape take a
/// faster path than strings with something to escape, and both must give RFC 8259 text.
@Suite struct JSONValueTests {
    @Test func stringsWithoutEscapesAreWrittenAsThey() {
        #expect(JSONValue.string("serviceID").serialized == #""serviceID""#)
        #expect(JSONValue.string("").serialized == #""""#)
        #expect(JSONValue.string("µs é 🛩").serialized == "\"µs é 🛩\"")
    }

    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONValue.string("a\"b").serialized == #""a\"b""#)
        #expect(JSONValue.string("a\\b").serialized == #""a\\b""#)
        #expect(JSONValue.string("a\nb\tc\r").serialized == #""a\nb\tc\r""#)
        #expect(JSONValue.string("\u{01}\u{1F}é").serialized == #""\u0001\u001fé""#)
    }

    @Test func objectsKeepTheirOrderAndEscapeKeys() {
        let value = JSONValue.object([("z\"", .unsigned(1)), ("a", .array([.bool(true), .null, .string("x")]))])
        #expect(value.serialized == #"{"z\"":1,"a":[true,null,"x"]}"#)
    }

    @Test func hexIsLowerCaseTwoDigitsAnOctet() {
        #expect(HexString.encode([0x00, 0x0A, 0xF0, 0xFF, 0x5C]) == "000af0ff5c")
        #expect(HexString.encode([]) == "")
        #expect(HexString.encode([UInt8](repeating: 0xAB, count: 3)[1...]) == "abab")
    }
}
