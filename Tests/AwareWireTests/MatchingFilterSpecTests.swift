import Testing

@testable import AwareWire

@Suite struct MatchingFilterSpecTests {
    @Test func textWildcardAndText() throws {
        let filter = try MatchingFilter(spec: "drone:*:v2")
        #expect(filter.items == [[0x64, 0x72, 0x6F, 0x6E, 0x65], [], [0x76, 0x32]])
    }

    @Test func hexIsAPrefixTokenForTheNextToken() throws {
        let filter = try MatchingFilter(spec: "hex:01:*:hex:03")
        #expect(filter.items == [[0x01], [], [0x03]])
        #expect(try MatchingFilter(spec: "hex:0A1b").items == [[0x0A, 0x1B]])
    }

    @Test func escapesMakeStarAndHexLiteral() throws {
        let filter = try MatchingFilter(spec: "\\*:\\hex:\\\\x:hexagon")
        #expect(filter.items == [[0x2A], [0x68, 0x65, 0x78], [0x5C, 0x78], Array("hexagon".utf8)])
        #expect(filter.spec == "\\*:\\hex:\\\\x:hexagon")
    }

    @Test func emptySpecIsTheFilterWithNoItems() throws {
        #expect(try MatchingFilter(spec: "").items == [])
        #expect(MatchingFilter(items: []).spec == "")
    }

    @Test func canonicalSpecRendersTextWildcardsAndHex() {
        let filter = MatchingFilter(items: [Array("drone".utf8), [], [0x01, 0x3A], [0x20], Array("é".utf8)])
        #expect(filter.spec == "drone:*:hex:013a:hex:20:hex:c3a9")
    }

    @Test func specRoundTrips() throws {
        for spec in ["drone:*:v2", "hex:01:*:hex:03", "*", "\\*:a", "hex:00ff:\\hex"] {
            #expect(try MatchingFilter(spec: spec).spec == spec)
        }
        let items: [[UInt8]] = [[0x3A, 0x3A], [], Array("\\".utf8), Array("*".utf8), [0xFF]]
        #expect(try MatchingFilter(spec: MatchingFilter(items: items).spec).items == items)
    }

    @Test func emptyItemsSayHowToWriteAWildcard() {
        #expect(throws: MatchingFilterSpecError.emptyItem(position: 6)) { try MatchingFilter(spec: "drone::v2") }
        #expect(throws: MatchingFilterSpecError.emptyItem(position: 0)) { try MatchingFilter(spec: ":a") }
        #expect(throws: MatchingFilterSpecError.emptyItem(position: 2)) { try MatchingFilter(spec: "a:") }
        #expect(
            MatchingFilterSpecError.emptyItem(position: 6).description
                == "empty item at position 6; write `*` for a wildcard item"
        )
    }

    @Test func hexErrorsNameThePosition() {
        #expect(throws: MatchingFilterSpecError.missingHexDigits(position: 2)) { try MatchingFilter(spec: "a:hex") }
        #expect(throws: MatchingFilterSpecError.invalidHexDigits(position: 4, token: "0g")) {
            try MatchingFilter(spec: "hex:0g")
        }
        #expect(throws: MatchingFilterSpecError.invalidHexDigits(position: 4, token: "123")) {
            try MatchingFilter(spec: "hex:123")
        }
        #expect(throws: MatchingFilterSpecError.invalidHexDigits(position: 4, token: "")) {
            try MatchingFilter(spec: "hex::a")
        }
    }

    @Test func wireSizeIsAtMost255Octets() throws {
        // 127 one-octet items take 254 octets: fits; one more wildcard makes 255: fits; another: 256.
        let fits = Array(repeating: "a", count: 127).joined(separator: ":") + ":*"
        #expect(try MatchingFilter(spec: fits).items.count == 128)
        #expect(throws: MatchingFilterSpecError.filterTooLong(octets: 256)) {
            try MatchingFilter(spec: fits + ":*")
        }
        let longest = String(repeating: "b", count: 254)
        #expect(try MatchingFilter(spec: longest).items == [Array(longest.utf8)])
        #expect(throws: MatchingFilterSpecError.filterTooLong(octets: 256)) {
            try MatchingFilter(spec: longest + "b")
        }
        #expect(throws: MatchingFilterSpecError.itemTooLong(position: 2, octets: 256)) {
            try MatchingFilter(spec: "a:" + String(repeating: "c", count: 256))
        }
    }
}

extension MatchingFilterSpecTests {
    @Test func aLoneBackslashIsAnError() {
        #expect(throws: MatchingFilterSpecError.danglingEscape(position: 2)) { try MatchingFilter(spec: "a:\\:b") }
        #expect(throws: MatchingFilterSpecError.danglingEscape(position: 0)) { try MatchingFilter(spec: "\\") }
    }
}
