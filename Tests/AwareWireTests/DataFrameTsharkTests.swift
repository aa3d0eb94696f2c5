import AwareTestSupport
import Foundation
import Testing

@testable import AwareWire

/// The golden NAN data frame checked by an independent decoder, tshark (platform-notes.md 4).
/// tshark is a CI prerequisite installed by ci/setup: its absence fails this test, as it
/// does the other tshark suites.
@Suite struct DataFrameTsharkTests {
    @Test func tsharkDecodesTheGoldenDataFrameAsUDPOverIPv6() throws {
        let record = CaptureRecord(
            timestamp: 1_700_000_000_000_000_000,
            radiotap: Radiotap(
                flags: RadiotapFlags(rawValue: 0),
                rate: 108,
                channel: RadiotapChannel(ofdmAt: 5745),
                antennaSignal: -50
            ),
            frame: DataFrameGolden.frame
        )
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("awarebench-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("data.pcap").path
        try Data(PcapFile(linkType: .ieee80211Radiotap, records: [record]).bytes).write(to: URL(fileURLWithPath: path))

        let verbose = try ExternalTool.tshark(["-r", path, "-V", "-o", "udp.check_checksum:TRUE"])
        #expect(verbose.status == 0, "tshark failed: \(verbose.errors)")
        #expect(!verbose.output.contains("Malformed"), "tshark -V: \(verbose.output)")
        #expect(verbose.output.contains("User Datagram Protocol, Src Port: 5000, Dst Port: 7000"))

        let fields = try ExternalTool.tshark([
            "-r", path, "-o", "udp.check_checksum:TRUE", "-T", "fields", "-e", "wlan.fc.type_subtype",
            "-e", "wlan.qos.tid", "-e", "wlan.bssid", "-e", "ipv6.src", "-e", "ipv6.dst", "-e", "ipv6.tclass.dscp",
            "-e", "udp.srcport", "-e", "udp.dstport", "-e", "udp.checksum.status",
        ])
        #expect(fields.status == 0, "tshark failed: \(fields.errors)")
        // Subtype 0x0028 = QoS Data; checksum status 1 = Good.
        #expect(
            fields.output
                == "0x0028\t6\t50:6f:9a:01:12:34\tfe80::a0:ff:fe00:1\tfe80::b0:ff:fe00:2\t46\t5000\t7000\t1\n"
        )
    }
}
