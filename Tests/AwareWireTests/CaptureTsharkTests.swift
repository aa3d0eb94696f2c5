import AwareTestSupport
import Foundation
import Testing

@testable import AwareWire

/// The writers' files checked by an independent decoder, tshark (platform-notes.md 4).
/// tshark is a CI prerequisite installed by ci/setup: its absence fails these tests.
@Suite struct CaptureTsharkTests {

    /// The golden SDF on 2437 MHz at -42 dBm and a PASN Authentication frame 1 (built by
    /// hand from nan-wire-reference.md 3.4.1) on 5745 MHz at -61 dBm.
    private var records: [CaptureRecord] {
        let pasn = FrameTestSupport.hex(
            "b000 0000 02a000000001 02b000000002 506f9a011234 0000 0700 0100 0000"
                + "301a 0100 000fac07 0100 000fac04 0100 000fac08 c000 0000 000fac07 f402 2100"
        )
        return [
            CaptureRecord(
                timestamp: 1_700_000_000_000_001_000,
                radiotap: Radiotap(
                    flags: RadiotapFlags(rawValue: 0),
                    rate: 12,
                    channel: RadiotapChannel(ofdmAt: 2437),
                    antennaSignal: -42
                ),
                frame: FrameTestSupport.goldenSDF
            ),
            CaptureRecord(
                timestamp: 1_700_000_000_500_000_000,
                radiotap: Radiotap(
                    tsft: 123_456,
                    flags: RadiotapFlags(rawValue: 0),
                    rate: 12,
                    channel: RadiotapChannel(ofdmAt: 5745),
                    antennaSignal: -61
                ),
                frame: pasn
            ),
        ]
    }

    private static let expectedFields = [
        "2437\t-42\t0x000d\t02:00:00:00:01:00",
        "5745\t-61\t0x000b\t02:b0:00:00:00:02",
    ]

    /// Writes `bytes` to a fresh temporary directory; the caller removes the directory.
    private func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("awarebench-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (directory, path)
    }

    private func fieldLines(_ path: String) throws -> [String] {
        let result = try ExternalTool.tshark([
            "-r", path, "-T", "fields", "-e", "radiotap.channel.freq", "-e", "radiotap.dbm_antsignal",
            "-e", "wlan.fc.type_subtype", "-e", "wlan.sa",
        ])
        #expect(result.status == 0, "tshark failed: \(result.errors)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func pcapWithRadiotapReadsBackAndTsharkAgrees() throws {
        let bytes = PcapFile(linkType: .ieee80211Radiotap, records: records).bytes
        let read = try CaptureReader.read(bytes: bytes)
        #expect(read.map(\.frame) == records.map(\.frame))
        #expect(read.map(\.frequencyMHz) == [2437, 5745])
        #expect(read.map(\.signalDBm) == [-42, -61])
        #expect(read.map(\.timestamp) == [1_700_000_000_000_001_000, 1_700_000_000_500_000_000])
        let (directory, path) = try temporaryFile("frames.pcap", bytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = try fieldLines(path)
        #expect(lines == Self.expectedFields)
    }

    @Test func pcapngWithRadiotapReadsBackAndTsharkAgrees() throws {
        let bytes = PcapngFile(records: records).bytes
        let read = try CaptureReader.read(bytes: bytes)
        #expect(read == records)
        let (directory, path) = try temporaryFile("frames.pcapng", bytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fields = try fieldLines(path)
        #expect(fields == Self.expectedFields)
        let summary = try ExternalTool.tshark(["-r", path])
        #expect(summary.status == 0, "tshark -r failed: \(summary.errors)")
        // tshark warns when run as root; anything else on stderr is a complaint about the file.
        let complaints = summary.errors.split(separator: "\n").filter { !$0.hasPrefix("Running as user") }
        #expect(complaints.isEmpty, "tshark -r complained: \(summary.errors)")
        let lines = summary.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("SDF Publish") == true, "tshark -r: \(summary.output)")
        #expect(!summary.output.contains("Malformed"), "tshark -r: \(summary.output)")
    }

    @Test func tsharkDissectsTheNANAttributes() throws {
        // tshark's NAN dissector sees the SDA of the golden SDF (platform-notes.md 4).
        let bytes = PcapFile(linkType: .ieee80211Radiotap, records: [records[0]]).bytes
        let (directory, path) = try temporaryFile("sdf.pcap", bytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ExternalTool.tshark([
            "-r", path, "-T", "fields", "-e", "nan.attribute.type", "-e", "nan.service_id",
        ])
        #expect(result.status == 0, "tshark failed: \(result.errors)")
        #expect(result.output == "3,14\t85:12:cc:da:be:18\n")
    }
}
