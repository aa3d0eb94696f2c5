import AwareCore
import Testing

/// Text from the air printed for people (issue 21, finding 9: `discover` printed a TXT value's
/// ESC sequences raw, so an accessory could clear or rewrite the reader's terminal).
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownNotObeyed() {
        // ESC [2J clears the screen; CR returns to the line's start; NEL (U+0085) is a C1 control.
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == #"a\x1B[2Jb"#)
        #expect(TerminalText.escaped("ok\rfake") == #"ok\x0Dfake"#)
        #expect(TerminalText.escaped("x\u{7F}\u{85}\u{0}") == #"x\x7F\x85\x00"#)
        #expect(TerminalText.escaped(#"C:\dir"#) == #"C:\\dir"#)
        #expect(TerminalText.escaped("Lumen Optics café 🎥") == "Lumen Optics café 🎥")
    }

    @Test func octetsThatAreNotUTF8AreShownAsTheirValues() {
        #expect(TerminalText.escaped([0x41, 0xFF, 0x42]) == #"A\xFFB"#)
        // A three-octet sequence cut after two octets, then a valid one (é, C3 A9).
        #expect(TerminalText.escaped([0xE2, 0x82, 0x41, 0xC3, 0xA9]) == #"\xE2\x82Aé"#)
        #expect(TerminalText.escaped(Array("vendorName=\u{1B}]0;pwned\u{07}".utf8)) == #"vendorName=\x1B]0;pwned\x07"#)
        #expect(TerminalText.escaped([UInt8]()) == "")
    }
}
