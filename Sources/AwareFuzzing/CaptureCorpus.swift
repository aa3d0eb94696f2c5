import AwareWire

/// Capture-shaped inputs built from frames: radiotap packets (the packet data of a link
/// type 127 record) and whole pcap / pcapng files, for robustness runs and benchmarks.
///
/// Pure data, no I/O: the same frames always give the same octets.
public enum CaptureCorpus {
    /// The radiotap headers a sniffer writes, from none of the fields AwareBench decodes to
    /// all of them, one with Flags bit 0x10 (the packet ends in an FCS).
    public static let radiotapHeaders: [Radiotap] = [
        Radiotap(),
        Radiotap(flags: RadiotapFlags(rawValue: 0x00), channel: RadiotapChannel(ofdmAt: 2437), antennaSignal: -48),
        Radiotap(
            tsft: 0x0000_0001_2345_6789,
            flags: RadiotapFlags(rawValue: RadiotapFlags.fcsAtEndBit),
            rate: 12,
            channel: RadiotapChannel(ofdmAt: 5745),
            antennaSignal: -61
        ),
    ]

    /// `frame` as a link type 127 record: the radiotap header, the frame, and its FCS
    /// (CRC-32, little-endian) when the header's flags say one follows.
    public static func record(_ frame: [UInt8], radiotap: Radiotap, timestamp: UInt64 = 0) -> CaptureRecord {
        let crc = CRC32.checksum(frame)
        let fcs = radiotap.flags?.fcsAtEnd == true ? (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) } : nil
        return CaptureRecord(
            timestamp: timestamp,
            linkType: .ieee80211Radiotap,
            radiotap: radiotap,
            frame: frame,
            frameCheckSequence: fcs
        )
    }

    /// Every frame under every radiotap header: packet data of link type 127.
    public static func radiotapPackets(frames: [[UInt8]]) -> [[UInt8]] {
        frames.enumerated().map { index, frame in
            record(frame, radiotap: radiotapHeaders[index % radiotapHeaders.count])
                .packetData(for: .ieee80211Radiotap)
        }
    }

    /// A classic pcap (little-endian, microseconds) holding `packets` as they are, whatever
    /// they contain: the record headers always give their true length, so a reader meets
    /// the packet data exactly as a sniffer would have written it.
    public static func pcap(linkType: CaptureLinkType, packets: [[UInt8]]) -> [UInt8] {
        var writer = WireWriter(capacity: PcapFile.headerLength + packets.reduce(0) { $0 + $1.count + 16 })
        writer.writeUInt32LE(0xA1B2_C3D4)
        writer.writeUInt16LE(2)
        writer.writeUInt16LE(4)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(0)
        writer.writeUInt32LE(262_144)
        writer.writeUInt32LE(linkType.rawValue)
        for (index, packet) in packets.enumerated() {
            writer.writeUInt32LE(1_700_000_000)
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: index * 1_000))
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: packet.count))
            writer.writeUInt32LE(UInt32(truncatingIfNeeded: packet.count))
            writer.write(packet)
        }
        return writer.bytes
    }

    /// A radiotap pcap of `count` records cycling through `frames` and the radiotap headers,
    /// one millisecond apart: the file of the decode benchmarks.
    public static func radiotapCapture(frames: [[UInt8]], count: Int) -> [UInt8] {
        guard !frames.isEmpty else { return pcap(linkType: .ieee80211Radiotap, packets: []) }
        let records = (0..<max(0, count)).map { index in
            record(
                frames[index % frames.count],
                radiotap: radiotapHeaders[index % radiotapHeaders.count],
                timestamp: 1_700_000_000_000_000_000 + UInt64(index) * 1_000_000
            )
        }
        return PcapFile(linkType: .ieee80211Radiotap, records: records).bytes
    }

    /// Small capture files of every kind the reader takes, `perFile` frames each: pcap of
    /// link type 105 and 127, and pcapng mixing both link types in one section.
    public static func captureFiles(frames: [[UInt8]], perFile: Int = 3) -> [[UInt8]] {
        let size = max(1, perFile)
        var files: [[UInt8]] = []
        var start = 0
        while start < frames.count {
            let chunk = Array(frames[start..<min(frames.count, start + size)])
            let plain = chunk.enumerated().map { index, frame in
                CaptureRecord(timestamp: 1_700_000_000_000_000_000 + UInt64(index) * 1_000, frame: frame)
            }
            let radio = chunk.enumerated().map { index, frame in
                record(
                    frame,
                    radiotap: radiotapHeaders[(start + index) % radiotapHeaders.count],
                    timestamp: 1_700_000_000_000_000_000 + UInt64(index) * 1_000
                )
            }
            files.append(PcapFile(linkType: .ieee80211, records: plain).bytes)
            files.append(PcapFile(linkType: .ieee80211Radiotap, records: radio).bytes)
            files.append(PcapngFile(records: zip(plain, radio).flatMap { [$0, $1] }).bytes)
            start += size
        }
        return files
    }
}
