import Testing

@testable import AwareWire

@Suite struct CaptureRadiotapTests {
    private let hex = FrameTestSupport.hex

    @Test func writesAlignedFieldsWithoutTSFT() {
        // present = Flags | Rate | Channel | dBm Antenna Signal = 0x2e; the Channel lands on
        // offset 10 (2-aligned) right after Flags (8) and Rate (9).
        let header = Radiotap(
            flags: RadiotapFlags(rawValue: 0),
            rate: 12,
            channel: RadiotapChannel(ofdmAt: 2437),
            antennaSignal: -42
        )
        #expect(header.wireBytes == hex("00 00 0f00 2e000000 00 0c 8509 c000 d6"))
    }

    @Test func writesAlignedFieldsWithTSFT() {
        // TSFT first at offset 8 (8-aligned), then Flags 16, Rate 17, Channel 18, signal 22.
        let header = Radiotap(
            tsft: 0x0102_0304_0506_0708,
            flags: RadiotapFlags(rawValue: 0x10),
            rate: 2,
            channel: RadiotapChannel(ofdmAt: 5745),
            antennaSignal: -60
        )
        #expect(header.wireBytes == hex("00 00 1700 2f000000 0807060504030201 10 02 7116 4001 c4"))
    }

    @Test func parsesWhatItWrites() throws {
        let header = Radiotap(
            tsft: 77,
            flags: RadiotapFlags(rawValue: 0x02),
            rate: 12,
            channel: RadiotapChannel(ofdmAt: 2437),
            antennaSignal: -3
        )
        let parsed = try Radiotap(wireBytes: header.wireBytes, structure: "t")
        #expect(parsed == header)
        #expect(parsed.tsft == 77)
        #expect(parsed.channel?.is2GHz == true)
        #expect(parsed.channel?.isOFDM == true)
        #expect(parsed.antennaSignal == -3)
    }

    @Test func extendedPresentWordsAndUnknownFieldsKeepTheLength() throws {
        // Words: 0xa000402e (Flags, Rate, Channel, signal, bit 14 RX flags, bits 29+31),
        // then 0x00000820 (signal + antenna of a second namespace); fields: Flags 10, Rate 02,
        // Channel 9e09 a000 (2462, CCK+2G), signal -50, pad, RX flags 0000, then the second
        // namespace's fields, which the parser does not decode.
        let bytes = hex("00 00 1800 2e4000a0 20080000 10 02 9e09 a000 ce 00 0000 ce 01")
        let header = try Radiotap(wireBytes: bytes, structure: "t")
        #expect(header.length == 24)
        #expect(header.flags?.fcsAtEnd == true)
        #expect(header.rate == 2)
        #expect(header.channel == RadiotapChannel(frequency: 2462, flags: 0x00A0))
        #expect(header.antennaSignal == -50)
        #expect(header.tsft == nil)
        #expect(header.wireBytes == bytes)
    }

    @Test func stopsAtTheFirstUnknownBit() throws {
        // Bit 23 (unknown here) then nothing decodable after; Flags before it still decode.
        let bytes = hex("00 00 0c00 02008000 10 aabbcc")
        let header = try Radiotap(wireBytes: bytes, structure: "t")
        #expect(header.flags?.rawValue == 0x10)
        #expect(header.length == 12)
    }

    @Test func itLenBeyondTheFrameIsAnError() {
        #expect(
            throws: WireError(
                .lengthMismatch(declared: 64, actual: 12),
                structure: "radiotap header",
                field: "it_len",
                offset: 2
            )
        ) {
            _ = try Radiotap(wireBytes: hex("00 00 4000 02000000 10 000000"), structure: "t")
        }
    }

    @Test func versionOtherThanZeroIsAnError() {
        #expect(
            throws: WireError(
                .invalidValue("it_version 1 is not 0"),
                structure: "radiotap header",
                field: "it_version",
                offset: 0
            )
        ) {
            _ = try Radiotap(wireBytes: hex("01 00 0800 00000000"), structure: "t")
        }
    }

    @Test func fieldPastItLenIsAnError() {
        // Present says TSFT but it_len leaves no room for it.
        #expect(
            throws: WireError(.truncated(need: 8, have: 0), structure: "radiotap header", field: "TSFT", offset: 8)
        ) {
            _ = try Radiotap(wireBytes: hex("00 00 0800 01000000"), structure: "t")
        }
    }

    @Test func describesItself() {
        let header = Radiotap(channel: RadiotapChannel(ofdmAt: 5745), antennaSignal: -60)
        let keys = header.decodedFields.map(\.key)
        #expect(keys == ["length", "present", "channel", "antennaSignal"])
    }
}
