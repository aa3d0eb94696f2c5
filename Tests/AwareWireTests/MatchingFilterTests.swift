import Testing

@testable import AwareWire

@Suite struct MatchingFilterTests {
    private let a: [UInt8] = [0x61]
    private let b: [UInt8] = [0x62]
    private let ab: [UInt8] = [0x61, 0x62]

    private func filter(_ items: [UInt8]...) -> MatchingFilter { MatchingFilter(items: items) }

    @Test func parsesLVListAndRoundTrips() throws {
        // "ab" (len 2), wildcard (len 0), "c" (len 1): 02 61 62 | 00 | 01 63
        let wire: [UInt8] = [0x02, 0x61, 0x62, 0x00, 0x01, 0x63]
        let parsed = try MatchingFilter(wireBytes: wire, structure: "Matching Filter")
        #expect(parsed.items == [[0x61, 0x62], [], [0x63]])
        #expect(parsed.wireBytes == wire)
        #expect(parsed.wireLength == 6)
        #expect(try MatchingFilter(wireBytes: [], structure: "Matching Filter").items.isEmpty)
    }

    @Test func itemRunningPastTheEndIsALengthMismatch() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 3, actual: 1),
                structure: "Matching Filter",
                field: "Matching Filter Item",
                offset: 3
            )
        ) {
            _ = try MatchingFilter(wireBytes: [0x00, 0x00, 0x03, 0x61], structure: "Matching Filter")
        }
    }

    @Test func enforcesThe255OctetLimit() throws {
        let longest = [UInt8](repeating: 0, count: 255)
        #expect(try MatchingFilter(wireBytes: longest, structure: "MF").items.count == 255)
        #expect(
            throws: WireError(
                .invalidValue("a matching filter of 256 octets exceeds 255"),
                structure: "MF",
                field: "Matching Filter",
                offset: 0
            )
        ) {
            _ = try MatchingFilter(wireBytes: longest + [0], structure: "MF")
        }
        #expect(MatchingFilter(items: [[UInt8](repeating: 1, count: 254)]).fitsWireLimit)
        #expect(!MatchingFilter(items: [[UInt8](repeating: 1, count: 254), []]).fitsWireLimit)
    }

    @Test func absentFiltersAndWildcards() {
        #expect(MatchingFilter.matches(subscriber: nil, publisher: filter(a)))
        #expect(MatchingFilter.matches(subscriber: nil, publisher: nil))
        #expect(MatchingFilter.matches(subscriber: filter(), publisher: nil))
        #expect(!MatchingFilter.matches(subscriber: filter(a), publisher: nil))
        #expect(MatchingFilter.matches(subscriber: filter([], []), publisher: nil))
        // Subscriber wildcard in position 2, publisher wildcard in position 1.
        #expect(MatchingFilter.matches(subscriber: filter(a, []), publisher: filter(a, b)))
        #expect(MatchingFilter.matches(subscriber: filter(a, b), publisher: filter([], b)))
    }

    @Test func itemsCompareByLengthAndOctets() {
        #expect(MatchingFilter.matches(subscriber: filter(a, b), publisher: filter(a, b)))
        #expect(!MatchingFilter.matches(subscriber: filter(a, b), publisher: filter(a, a)))
        // "ab" against "a": lengths differ.
        #expect(!MatchingFilter.matches(subscriber: filter(ab), publisher: filter(a)))
        #expect(!MatchingFilter.matches(subscriber: filter(a), publisher: filter(ab)))
    }

    @Test func filterLengthsThatDiffer() {
        // A shorter subscriber filter matches on its own items.
        #expect(MatchingFilter.matches(subscriber: filter(a), publisher: filter(a, b, ab)))
        // A longer one: extra items must be wildcards (nan-wire-reference.md 2.4).
        #expect(!MatchingFilter.matches(subscriber: filter(a, b), publisher: filter(a)))
        #expect(MatchingFilter.matches(subscriber: filter(a, []), publisher: filter(a)))
        // A present but empty publisher filter has no items.
        #expect(!MatchingFilter.matches(subscriber: filter(a), publisher: filter()))
        #expect(MatchingFilter.matches(subscriber: filter([]), publisher: filter()))
    }

    @Test func describesItems() {
        #expect(filter(a, []).decodedFields == [DecodedField("items", "Items", .list([.bytes([0x61]), .bytes([])]))])
    }
}
