import Testing

@testable import AwareWire

@Suite struct CapturePcapngTests {
    private let hex = FrameTestSupport.hex

    private let shbLittle = "0a0d0d0a 1c000000 4d3c2b1a 0100 0000 ffffffffffffffff 1c000000"

    @Test func writesSectionInterfaceAndEnhancedPacket() {
        let file = PcapngFile(records: [CaptureRecord(timestamp: 1_000_000_002, frame: hex("d000aabb"))])
        let expected = hex(
            shbLittle
                // IDB: link 105, snaplen 0, if_tsresol = 9, opt_endofopt.
                + "01000000 20000000 6900 0000 00000000 0900 0100 09000000 00000000 20000000"
                // EPB: interface 0, timestamp 1000000002 ns = 0x3b9aca02, lengths 4.
                + "06000000 24000000 00000000 00000000 02ca9a3b 04000000 04000000 d000aabb 24000000"
        )
        #expect(file.bytes == expected)
    }

    @Test func readsBigEndianWithSimplePacketAndUnknownBlock() throws {
        let text =
            "0a0d0d0a 0000001c 1a2b3c4d 0001 0000 ffffffffffffffff 0000001c"
            + "00000001 00000014 0069 0000 00000000 00000014"
            + "00000bad 00000010 deadbeef 00000010"
            + "00000006 00000024 00000000 00000000 000f4242 00000002 00000002 c0000000 00000024"
            + "00000003 00000014 00000002 c0000000 00000014"
        let file = try PcapngFile(bytes: hex(text))
        #expect(
            file.interfaces == [
                PcapngInterface(linkType: .ieee80211, snapLength: 0, timestampResolution: .microseconds)
            ]
        )
        #expect(
            file.records == [
                CaptureRecord(timestamp: 1_000_002_000, linkType: .ieee80211, frame: [0xC0, 0x00]),
                CaptureRecord(timestamp: 0, linkType: .ieee80211, frame: [0xC0, 0x00]),
            ]
        )
        #expect(CaptureReader.format(of: hex(text)) == .pcapng)
    }

    @Test func severalInterfacesAndLinkTypesRoundTrip() throws {
        let radiotap = Radiotap(
            flags: RadiotapFlags(rawValue: 0),
            channel: RadiotapChannel(ofdmAt: 5745),
            antennaSignal: -61
        )
        let records = [
            CaptureRecord(timestamp: 5, frame: hex("d000 0000")),
            CaptureRecord(timestamp: 1_700_000_000_987_654_321, radiotap: radiotap, frame: FrameTestSupport.goldenSDF),
            CaptureRecord(timestamp: 7, frame: hex("b000 0000")),
        ]
        let file = PcapngFile(records: records)
        #expect(file.interfaces.map(\.linkType) == [.ieee80211, .ieee80211Radiotap])
        let read = try PcapngFile(bytes: file.bytes)
        #expect(read.records.map(\.interfaceID) == [0, 1, 0])
        #expect(read.records.map(\.timestamp) == records.map(\.timestamp))
        #expect(read.records.map(\.frame) == records.map(\.frame))
        #expect(read.records[1].frequencyMHz == 5745)
        #expect(read.records[1].signalDBm == -61)
        #expect(try CaptureReader.read(bytes: file.bytes).count == 3)
    }

    @Test func binaryTimestampResolution() {
        // 2^-10 s units: 1024 units = 1 s.
        #expect(PcapngTimestampResolution(rawValue: 0x8A).nanoseconds(1024) == 1_000_000_000)
        #expect(PcapngTimestampResolution(rawValue: 3).nanoseconds(5) == 5_000_000)
        #expect(PcapngTimestampResolution(rawValue: 12).nanoseconds(5_000) == 5)
        #expect(PcapngTimestampResolution(rawValue: 0).nanoseconds(UInt64.max) == nil)
    }

    @Test func trailingBlockLengthMismatchIsAnError() {
        let text = "0a0d0d0a 1c000000 4d3c2b1a 0100 0000 ffffffffffffffff 20000000"
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 28, actual: 32),
                structure: "pcapng Section Header Block (block 1)",
                field: "trailing Block Total Length",
                offset: 24
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func blockLongerThanTheFileIsAnError() {
        let text = shbLittle + "06000000 40000000 00000000"
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 52, actual: 4),
                structure: "pcapng Enhanced Packet Block (block 2)",
                field: "Block Total Length",
                offset: 36
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func packetOnAnUndescribedInterfaceIsAnError() {
        let text = shbLittle + "06000000 20000000 00000000 00000000 00000000 00000000 00000000 20000000"
        #expect(
            throws: WireError(
                .invalidValue("interface 0 has no Interface Description Block in this section"),
                structure: "pcapng Enhanced Packet Block (block 2)",
                field: "Interface ID",
                offset: 36
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }

    @Test func capturedLengthBeyondTheBlockIsAnError() {
        let text =
            shbLittle + "01000000 14000000 6900 0000 00000000 14000000"
            + "06000000 24000000 00000000 00000000 00000000 08000000 08000000 d000aabb 24000000"
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 8, actual: 4),
                structure: "pcapng Enhanced Packet Block (block 3)",
                field: "Captured Packet Length",
                offset: 76
            )
        ) {
            _ = try CaptureReader.read(bytes: hex(text))
        }
    }
}
