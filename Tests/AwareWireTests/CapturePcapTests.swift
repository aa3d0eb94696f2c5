import Testing

@testable import AwareWire

@Suite struct CapturePcapTests {
    private let hex = FrameTestSupport.hex

    private func record(_ text: String, at nanoseconds: UInt64) -> CaptureRecord {
        CaptureRecord(timestamp: nanoseconds, frame: hex(text))
    }

    @Test func writesLittleEndianMicroseconds() {
        let file = PcapFile(
            linkType: .ieee80211,
            records: [record("d000aabb", at: 1_700_000_000_123_456_789)],
            snapLength: 65535
        )
        // Header: magic, 2.4, zone 0, sigfigs 0, snaplen 65535, link 105; record: sec
        // 1700000000 = 0x6553f100, usec 123456 = 0x0001e240, lengths 4 and 4.
        let expected = hex(
            "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 69000000"
                + "00f15365 40e20100 04000000 04000000 d000aabb"
        )
        #expect(file.bytes == expected)
    }

    @Test func readsBothByteOrdersAndPrecisions() throws {
        let cases: [(String, UInt64)] = [
            // Big-endian, microseconds: 1 s + 2 µs.
            (
                "a1b2c3d4 0002 0004 00000000 00000000 0000ffff 00000069 00000001 00000002 00000002 00000002 c000",
                1_000_002_000
            ),
            // Little-endian, nanoseconds: 1 s + 2 ns.
            (
                "4d3cb2a1 0200 0400 00000000 00000000 ffff0000 69000000 01000000 02000000 02000000 02000000 c000",
                1_000_000_002
            ),
            // Big-endian, nanoseconds.
            (
                "a1b23c4d 0002 0004 00000000 00000000 0000ffff 00000069 00000001 00000002 00000002 00000002 c000",
                1_000_000_002
            ),
        ]
        for (text, nanoseconds) in cases {
            let records = try CaptureReader.read(bytes: hex(text))
            #expect(records == [CaptureRecord(timestamp: nanoseconds, linkType: .ieee80211, frame: [0xC0, 0x00])])
        }
    }

    @Test func radiotapRecordsRoundTrip() throws {
        let radiotap = Radiotap(
            flags: RadiotapFlags(rawValue: 0),
            rate: 12,
            channel: RadiotapChannel(ofdmAt: 2437),
            antennaSignal: -42
        )
        let records = [
            CaptureRecord(timestamp: 1_000_000, radiotap: radiotap, frame: FrameTestSupport.goldenSDF),
            CaptureRecord(timestamp: 2_000_000, radiotap: radiotap, frame: hex("b000 0000")),
        ]
        let bytes = PcapFile(linkType: .ieee80211Radiotap, records: records).bytes
        let file = try PcapFile(bytes: bytes)
        #expect(file.linkType == .ieee80211Radiotap)
        #expect(file.records == records)
        #expect(file.records[0].frequencyMHz == 2437)
        #expect(file.records[0].signalDBm == -42)
        #expect(file.bytes == bytes)
    }

    @Test func fcsAtEndIsStripped() throws {
        // Radiotap with Flags 0x10, then the frame and a 4-octet FCS.
        let packet = "00 00 0900 02000000 10 d000 aabb 11223344"
        let text =
            "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 7f000000 00000000 00000000 11000000 11000000 " + packet
        let records = try CaptureReader.read(bytes: hex(text))
        #expect(records.first?.frame == hex("d000aabb"))
        #expect(records.first?.frameCheckSequence == hex("11223344"))
        #expect(records.first?.radiotap?.flags?.fcsAtEnd == true)
        #expect(PcapFile(linkType: .ieee80211Radiotap, records: records, snapLength: 65535).bytes == hex(text))
    }

    @Test func truncatedFileHeaderIsAnError() {
        #expect(
            throws: WireError(
                .truncated(need: 24, have: 10),
                structure: "pcap file header",
                field: "file header",
                offset: 0
            )
        ) {
            _ = try CaptureReader.read(bytes: hex("d4c3b2a1 0200 0400 0000"))
        }
    }

    @Test func truncatedRecordHeaderIsAnError() {
        let text = "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 69000000 01000000 02000000"
        #expect(
            throws: WireError(
                .truncated(need: 4, have: 0),
                structure: "pcap record 1 header",
                field: "incl_len",
                offset: 32
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func recordLengthBeyondTheFileIsAnError() {
        let text = "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 69000000 01000000 02000000 64000000 64000000 d000aabb"
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 100, actual: 4),
                structure: "pcap record 1 header",
                field: "incl_len",
                offset: 40
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func radiotapItLenBeyondTheRecordIsAnError() {
        // it_len 64 in a 12-octet record that starts at file offset 40.
        let text =
            "d4c3b2a1 0200 0400 00000000 00000000 ffff0000 7f000000 00000000 00000000 0c000000 0c000000"
            + "00 00 4000 02000000 10 000000"
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 64, actual: 12),
                structure: "radiotap header",
                field: "it_len",
                offset: 42
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func unknownMagicIsAnError() {
        #expect(
            throws: WireError(
                .invalidValue("magic 00000000 is neither pcap nor pcapng"),
                structure: "capture file",
                field: "magic",
                offset: 0
            )
        ) {
            _ = try CaptureReader.read(bytes: [0, 0, 0, 0, 0])
        }
    }
}
