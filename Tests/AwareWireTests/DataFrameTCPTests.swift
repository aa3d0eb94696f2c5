import AwareCore
import Testing

@testable import AwareWire

/// A connection from B = fe80::b0:ff:fe00:2 port 49152 to A = fe80::a0:ff:fe00:1 port 7000,
/// each segment computed once, independently of AwareWire, with the Python script described
/// at ICMPv6Golden (Next Header 6 in the pseudo-header; `struct.pack(">HHIIBBHHH", ...)` for
/// the header).
enum TCPGolden {
    /// B -> A: SYN, Sequence 1000, Window 65535, Data Offset 6, option MSS 1440 (02 04 05a0),
    /// checksum bca5.
    static let syn = FrameTestSupport.hex("c000 1b58 000003e8 00000000 60 02 ffff bca5 0000 020405a0")
    /// A -> B: SYN+ACK (0x12), Sequence 5000, Acknowledgment 1001, MSS 1440, checksum a90c.
    static let synAck = FrameTestSupport.hex("1b58 c000 00001388 000003e9 60 12 ffff a90c 0000 020405a0")
    /// B -> A: RST, Sequence 1001, Window 0, Data Offset 5, checksum d44a.
    static let rst = FrameTestSupport.hex("c000 1b58 000003e9 00000000 50 04 0000 d44a 0000")
}

@Suite struct DataFrameTCPTests {
    typealias G = ICMPv6Golden

    @Test func synBytes() throws {
        let syn = TCPSegment(
            sourcePort: 49152,
            destinationPort: 7000,
            sequenceNumber: 1000,
            flags: .syn,
            options: TCPSegment.maximumSegmentSizeOption(1440)
        )
        #expect(syn.bytes(source: G.b, destination: G.a) == TCPGolden.syn)
        let parsed = try TCPSegment(bytes: TCPGolden.syn, source: G.b, destination: G.a)
        #expect(parsed == syn)
        #expect(parsed.flags == .syn && parsed.maximumSegmentSize == 1440 && parsed.window == 65535)
        #expect(parsed.dataOffset == 6 && parsed.payload.isEmpty)
    }

    @Test func synAckBytes() throws {
        let synAck = TCPSegment(
            sourcePort: 7000,
            destinationPort: 49152,
            sequenceNumber: 5000,
            acknowledgmentNumber: 1001,
            flags: [.syn, .ack],
            options: TCPSegment.maximumSegmentSizeOption(1440)
        )
        #expect(synAck.bytes(source: G.a, destination: G.b) == TCPGolden.synAck)
        let parsed = try TCPSegment(bytes: TCPGolden.synAck, source: G.a, destination: G.b)
        #expect(parsed == synAck && parsed.flags.rawValue == 0x12 && parsed.acknowledgmentNumber == 1001)
        #expect(parsed.flags.names == ["ACK", "SYN"])
    }

    @Test func rstBytes() throws {
        let rst = TCPSegment(sourcePort: 49152, destinationPort: 7000, sequenceNumber: 1001, flags: .rst, window: 0)
        #expect(rst.bytes(source: G.b, destination: G.a) == TCPGolden.rst)
        let parsed = try TCPSegment(bytes: TCPGolden.rst, source: G.b, destination: G.a)
        #expect(parsed == rst && parsed.options.isEmpty && parsed.maximumSegmentSize == nil)
    }

    @Test func optionsArePaddedToWholeWords() throws {
        // Three NOPs take one End of Option List octet to fill the word: Data Offset 6.
        let segment = TCPSegment(
            sourcePort: 1,
            destinationPort: 2,
            sequenceNumber: 3,
            flags: [.psh, .ack],
            options: [1, 1, 1],
            payload: Array("data".utf8)
        )
        let bytes = segment.bytes(source: G.a, destination: G.b)
        #expect(bytes.count == 28 && bytes[12] == 0x60 && Array(bytes[20..<24]) == [1, 1, 1, 0])
        let parsed = try TCPSegment(bytes: bytes, source: G.a, destination: G.b)
        #expect(parsed.options == [1, 1, 1, 0] && parsed.payload == Array("data".utf8))
    }

    @Test func maximumSegmentSizeIsFoundPastOtherOptions() {
        var segment = TCPSegment(sourcePort: 1, destinationPort: 2, sequenceNumber: 0, flags: .syn)
        #expect(TCPSegment.maximumSegmentSizeOption(1440) == [0x02, 0x04, 0x05, 0xA0])
        // NOP, NOP, Window Scale (kind 3, length 3, shift 7), then MSS 1220.
        segment.options = [1, 1, 3, 3, 7, 2, 4, 0x04, 0xC4, 0, 0, 0]
        #expect(segment.maximumSegmentSize == 1220)
        // End of Option List ends the search; a length under 2 or past the end stops it.
        segment.options = [0, 2, 4, 0x05, 0xA0]
        #expect(segment.maximumSegmentSize == nil)
        segment.options = [3, 1, 2, 4, 0x05, 0xA0]
        #expect(segment.maximumSegmentSize == nil)
        segment.options = [2, 4, 0x05]
        #expect(segment.maximumSegmentSize == nil)
    }

    @Test func aFlippedChecksumBitIsRefused() {
        var bytes = TCPGolden.syn
        bytes[17] ^= 0x01
        #expect(
            throws: WireError(
                .invalidValue("checksum 0xbca4 does not match 0xbca5"),
                structure: "TCP segment",
                field: "Checksum",
                offset: 16
            )
        ) {
            try TCPSegment(bytes: bytes, source: G.b, destination: G.a)
        }
    }

    @Test func dataOffsetsBelowFiveOrPastTheEndAreRefused() {
        // Checksums of the changed segments from the script (e44a and c44a), so only the
        // Data Offset is wrong.
        var four = TCPGolden.rst
        four[12] = 0x40
        four[16] = 0xE4
        #expect(
            throws: WireError(
                .invalidValue("Data Offset 4 is less than 5 (RFC 9293 3.1)"),
                structure: "TCP segment",
                field: "Data Offset",
                offset: 12
            )
        ) {
            try TCPSegment(bytes: four, source: G.b, destination: G.a)
        }
        var six = TCPGolden.rst
        six[12] = 0x60
        six[16] = 0xC4
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 24, actual: 20),
                structure: "TCP segment",
                field: "Data Offset",
                offset: 12
            )
        ) {
            try TCPSegment(bytes: six, source: G.b, destination: G.a)
        }
        #expect(
            throws: WireError(
                .truncated(need: 2, have: 1),
                structure: "TCP segment",
                field: "Urgent Pointer",
                offset: 18
            )
        ) {
            try TCPSegment(bytes: Array(TCPGolden.rst.prefix(19)), source: G.b, destination: G.a)
        }
    }

    @Test func reservedBitsAreKept() throws {
        // The SYN with reserved bit 0x01 set after Data Offset: 6002 -> 6102 in the word at 12 raises
        // the sum by 0x100, so the checksum falls by 0x100 (bca5 -> bba5).
        var bytes = TCPGolden.syn
        bytes[12] = 0x61
        bytes[16] = 0xBB
        let parsed = try TCPSegment(bytes: bytes, source: G.b, destination: G.a)
        #expect(parsed.reservedBits == 1 && parsed.flags == .syn)
        #expect(parsed.bytes(source: G.b, destination: G.a) == bytes)
    }
}
