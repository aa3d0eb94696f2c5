import AwareFuzzing
import Testing

@testable import AwareWire

/// Issue 21, finding 8: decode and analyze read a whole capture into memory before its first
/// record. The stream reader reads block by block; these tests hold it to the whole-buffer
/// readers: the same records, and the same error at the same offset, wherever the chunks end.
@Suite struct CaptureStreamReaderTests {
    private let hex = FrameTestSupport.hex

    /// Feeds `bytes` in chunks of `chunk` octets: the records up to the first error, and it.
    static func stream(_ bytes: [UInt8], chunk: Int) -> (records: [CaptureRecord], error: WireError?) {
        DecoderRobustness.readStreaming(bytes, chunkLength: chunk)
    }

    /// The fixtures and their conversions: little-endian µs pcap (the hostap session), the same
    /// records as pcapng, and hand-built big-endian files of both formats.
    func captures() throws -> [(name: String, bytes: [UInt8])] {
        let session = [UInt8](try FrameTestSupport.fixture("hostap-session-A/session.pcap"))
        let records = try CaptureReader.read(bytes: session)
        return [
            ("session.pcap", session),
            ("session as pcapng", PcapngFile(records: records).bytes),
            (
                "big-endian pcap, ns",
                hex(
                    "a1b23c4d 0002 0004 00000000 00000000 0000ffff 00000069 00000001 00000002 00000002 00000002 c000"
                        + "00000003 00000004 00000003 00000005 d00000"
                )
            ),
            (
                "big-endian pcapng with a Simple Packet Block and an unknown block",
                hex(
                    "0a0d0d0a 0000001c 1a2b3c4d 0001 0000 ffffffffffffffff 0000001c"
                        + "00000001 00000014 0069 0000 00000000 00000014"
                        + "00000bad 00000010 deadbeef 00000010"
                        + "00000006 00000024 00000000 00000000 000f4242 00000002 00000002 c0000000 00000024"
                        + "00000003 00000014 00000002 c0000000 00000014"
                )
            ),
        ]
    }

    @Test("the stream reader reads the same records as the whole-buffer reader, in any chunk size")
    func sameRecords() throws {
        for (name, bytes) in try captures() {
            let whole = try CaptureReader.read(bytes: bytes)
            #expect(!whole.isEmpty, "\(name)")
            for chunk in [1, 3, 7, 64, 4_096, bytes.count] {
                let (records, error) = Self.stream(bytes, chunk: chunk)
                #expect(error == nil, "\(name), chunks of \(chunk): \(String(describing: error))")
                #expect(records == whole, "\(name), chunks of \(chunk)")
            }
        }
    }

    @Test("a capture cut anywhere gives the records before the cut and the whole-buffer reader's error")
    func sameErrors() throws {
        for (name, bytes) in try captures() {
            // Every cut in the small files; in the session, a cut every 29 octets (some in
            // headers, most in packet data).
            let cuts = bytes.count < 400 ? Array(0..<bytes.count) : Array(stride(from: 0, to: bytes.count, by: 29))
            for cut in cuts {
                let prefix = Array(bytes.prefix(cut))
                let expected = CaptureReader.readAvailable(bytes: prefix)
                for chunk in bytes.count < 400 ? [1, 5, 4_096] : [7, 4_096] {
                    let (records, error) = Self.stream(prefix, chunk: chunk)
                    #expect(records == expected.records, "\(name) cut at \(cut), chunks of \(chunk)")
                    #expect(error == expected.error, "\(name) cut at \(cut), chunks of \(chunk)")
                }
            }
        }
    }

    @Test("a record or block that claims 2 GB is refused at its length field, before its octets are there")
    func hugeLengthIsRefusedAtOnce() {
        let limit = CaptureReader.maximumBlockLength
        // pcap: the first record header's incl_len (file offset 32) says 2^31 octets.
        let pcap = hex("d4c3b2a1 0200 0400 00000000 00000000 ffff0000 69000000 01000000 02000000 00000080 00000080")
        // pcapng: the second block's Block Total Length (file offset 32) says 2^31 octets.
        let pcapng = hex(
            "0a0d0d0a 1c000000 4d3c2b1a 0100 0000 ffffffffffffffff 1c000000" + "06000000 00000080 00000000"
        )
        let cases: [(bytes: [UInt8], error: WireError)] = [
            (
                pcap,
                WireError(
                    .tooLong(declared: 1 << 31, limit: limit),
                    structure: "pcap record 1 header",
                    field: "incl_len",
                    offset: 32
                )
            ),
            (
                pcapng,
                WireError(
                    .tooLong(declared: 1 << 31, limit: limit),
                    structure: "pcapng Enhanced Packet Block (block 2)",
                    field: "Block Total Length",
                    offset: 32
                )
            ),
        ]
        for (bytes, expected) in cases {
            // The input has not ended: the reader does not wait for the 2 GB it was promised.
            var reader = CaptureStreamReader()
            reader.append(bytes)
            #expect(throws: expected) {
                while try reader.next() != nil {}
            }
            #expect(reader.isFinished)
            // The whole-buffer readers refuse it the same way.
            #expect(throws: expected) { _ = try CaptureReader.read(bytes: bytes) }
        }
        #expect(
            "\(cases[0].error)"
                == "pcap record 1 header, incl_len at offset 32: length field says 2147483648 octets, more than the "
                + "16777216 this reader accepts"
        )
    }

    @Test("what the reader holds stays one block and one chunk, however long the capture")
    func boundedBuffer() throws {
        let session = [UInt8](try FrameTestSupport.fixture("hostap-session-A/session.pcap"))
        let records = try CaptureReader.read(bytes: session)
        // The session's 37 records 60 times over (some 500 kB), read in 4 KiB chunks.
        let long = PcapFile(linkType: .ieee80211, records: Array(repeating: records, count: 60).flatMap { $0 }).bytes
        var reader = CaptureStreamReader()
        var count = 0
        var largest = 0
        var next = 0
        while !reader.isFinished {
            while let _ = try reader.next() { count += 1 }
            largest = max(largest, reader.bufferedCount)
            if next < long.count {
                reader.append(long[next..<min(long.count, next + 4_096)])
                next += 4_096
            } else {
                reader.endInput()
            }
            largest = max(largest, reader.bufferedCount)
        }
        #expect(count == records.count * 60)
        #expect(reader.offset == long.count)
        #expect(largest < 4_096 + 400)
    }
}
