import AwareCore
import AwareTestSupport
import Foundation
import Testing

@testable import AwareWire

/// Neighbour discovery, echo and TCP segments as AwareWire writes them, in QoS Data frames
/// (LLC/SNAP + IPv6), checked by an independent decoder, tshark (platform-notes.md 4). tshark
/// is a CI prerequisite installed by ci/setup: its absence fails this test.
@Suite struct DataFrameIPv6TsharkTests {
    typealias G = ICMPv6Golden

    /// One IPv6 packet per frame, built from values (not from the golden octets), B = the
    /// peer NDI's address, A = the own NDI's.
    static var packets: [IPv6Packet] {
        func icmp(_ message: ICMPv6Message, _ source: IPv6Address, _ destination: IPv6Address) -> IPv6Packet {
            IPv6Packet(
                nextHeader: IPNextHeader.icmpv6,
                hopLimit: 255,
                source: source,
                destination: destination,
                payload: message.bytes(source: source, destination: destination)
            )
        }
        func tcp(_ segment: TCPSegment, _ source: IPv6Address, _ destination: IPv6Address) -> IPv6Packet {
            IPv6Packet(
                nextHeader: IPNextHeader.tcp,
                hopLimit: 64,
                source: source,
                destination: destination,
                payload: segment.bytes(source: source, destination: destination)
            )
        }
        let mss = TCPSegment.maximumSegmentSizeOption(1440)
        return [
            icmp(.neighborSolicitation(G.solicitation), G.b, G.a.solicitedNodeMulticast),
            icmp(.neighborAdvertisement(G.advertisement), G.a, G.b),
            icmp(.echoRequest(G.echo), G.b, G.a),
            icmp(.echoReply(G.echo), G.a, G.b),
            tcp(
                TCPSegment(sourcePort: 49152, destinationPort: 7000, sequenceNumber: 1000, flags: .syn, options: mss),
                G.b,
                G.a
            ),
            tcp(
                TCPSegment(
                    sourcePort: 7000,
                    destinationPort: 49152,
                    sequenceNumber: 5000,
                    acknowledgmentNumber: 1001,
                    flags: [.syn, .ack],
                    options: mss
                ),
                G.a,
                G.b
            ),
            tcp(
                TCPSegment(
                    sourcePort: 49152,
                    destinationPort: 7000,
                    sequenceNumber: 1001,
                    acknowledgmentNumber: 5001,
                    flags: [.psh, .ack],
                    payload: Array("hello, drone".utf8)
                ),
                G.b,
                G.a
            ),
            tcp(
                TCPSegment(sourcePort: 49152, destinationPort: 7000, sequenceNumber: 1013, flags: .rst, window: 0),
                G.b,
                G.a
            ),
        ]
    }

    @Test func tsharkDecodesNeighborDiscoveryEchoAndTCP() throws {
        let records = Self.packets.enumerated().map { number, packet in
            CaptureRecord(
                timestamp: 1_700_000_000_000_000_000 + UInt64(number) * 1_000_000,
                radiotap: Radiotap(
                    flags: RadiotapFlags(rawValue: 0),
                    rate: 108,
                    channel: RadiotapChannel(ofdmAt: 5745),
                    antennaSignal: -50
                ),
                frame: QoSDataFrame(
                    receiver: DataFrameGolden.peerNDI,
                    transmitter: DataFrameGolden.ownNDI,
                    clusterID: DataFrameGolden.clusterID,
                    sequenceControl: SequenceControl(sequenceNumber: UInt16(number)),
                    qosControl: QoSControl(tid: 0),
                    body: LLCSNAPHeader.ipv6.wireBytes + packet.wireBytes
                ).wireBytes
            )
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("awarebench-ipv6-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ipv6.pcap").path
        try Data(PcapFile(linkType: .ieee80211Radiotap, records: records).bytes).write(to: URL(fileURLWithPath: path))

        let options = ["-o", "tcp.check_checksum:TRUE", "-o", "tcp.relative_sequence_numbers:FALSE"]
        let verbose = try ExternalTool.tshark(["-r", path, "-V"] + options)
        #expect(verbose.status == 0, "tshark failed: \(verbose.errors)")
        #expect(!verbose.output.contains("Malformed"), "tshark -V: \(verbose.output)")
        // The one warning is tshark's note on the RST (it ends the connection), and nothing is an error.
        let warnings = verbose.output.split(separator: "\n").filter { $0.contains("Expert Info (Warning") }
        #expect(
            warnings.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "[Expert Info (Warning/Sequence): Connection reset (RST)]"
            ]
        )
        #expect(!verbose.output.contains("Expert Info (Error"), "tshark -V: \(verbose.output)")

        let fields = try ExternalTool.tshark(
            ["-r", path, "-T", "fields", "-E", "separator=|"] + options
                + [
                    "-e", "ipv6.src", "-e", "ipv6.dst", "-e", "icmpv6.type", "-e", "icmpv6.checksum.status",
                    "-e", "icmpv6.nd.ns.target_address", "-e", "icmpv6.opt.linkaddr", "-e", "icmpv6.nd.na.flag.r",
                    "-e", "icmpv6.nd.na.flag.s", "-e", "icmpv6.nd.na.flag.o", "-e", "icmpv6.echo.identifier",
                    "-e", "icmpv6.echo.sequence_number", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.seq",
                    "-e", "tcp.ack", "-e", "tcp.flags", "-e", "tcp.options.mss_val", "-e", "tcp.len",
                    "-e", "tcp.checksum.status",
                ]
        )
        #expect(fields.status == 0, "tshark failed: \(fields.errors)")
        // Checksum status 1 = Good; the NA's flags R, S, O = 0, 1, 1; tshark shows an
        // Acknowledgment Number of 0 when ACK is clear.
        let a = "fe80::a0:ff:fe00:1"
        let b = "fe80::b0:ff:fe00:2"
        let expected = [
            "\(b)|ff02::1:ff00:1|135|1|\(a)|02:b0:00:00:00:02|||||||||||||",
            "\(a)|\(b)|136|1||02:a0:00:00:00:01|0|1|1||||||||||",
            "\(b)|\(a)|128|1||||||0x1234|1||||||||",
            "\(a)|\(b)|129|1||||||0x1234|1||||||||",
            "\(b)|\(a)||||||||||49152|7000|1000|0|0x0002|1440|0|1",
            "\(a)|\(b)||||||||||7000|49152|5000|1001|0x0012|1440|0|1",
            "\(b)|\(a)||||||||||49152|7000|1001|5001|0x0018||12|1",
            "\(b)|\(a)||||||||||49152|7000|1013|0|0x0004||0|1",
        ]
        #expect(fields.output.split(separator: "\n").map(String.init) == expected)
    }
}
