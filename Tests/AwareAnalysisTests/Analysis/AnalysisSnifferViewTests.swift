import AwareAnalysis
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// Hostap session A as a sniffer would have recorded it: radiotap with the FCS kept, a
/// retransmission of every unicast frame, one frame received corrupted and one cut short by the
/// snap length. The findings must be the session's own (``AnalysisHostapSessionTests``) at the
/// shifted frame numbers, plus exactly one note for each frame the sniffer spoiled.
@Suite struct AnalysisSnifferViewTests {
    /// The frame `frame` with its FCS, as radiotap (Flags: FCS at end) records it.
    static func record(_ frame: [UInt8], at timestamp: UInt64, fcs: UInt32, original: Int? = nil) -> CaptureRecord {
        let fcsOctets = (0..<4).map { UInt8(fcs >> (8 * UInt32($0)) & 0xFF) }
        return CaptureRecord(
            timestamp: timestamp,
            radiotap: Radiotap(
                flags: RadiotapFlags(rawValue: RadiotapFlags.fcsAtEndBit),
                channel: RadiotapChannel(ofdmAt: 2437)
            ),
            frame: frame,
            frameCheckSequence: fcsOctets,
            originalLength: original
        )
    }

    @Test func theSessionSeenThroughASnifferGivesTheSameFindingsPlusItsNotes() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: AnalysisHostapSessionTests.path)))
        let session = try CaptureReader.read(bytes: bytes)
        var records: [CaptureRecord] = []
        var renumbered: [Int: Int] = [:]
        var corrupted = 0
        var truncated = 0
        for (index, original) in session.enumerated() {
            let frame = original.frame
            let fcs = HandBuiltCapture.crc32(frame)
            switch index + 1 {
            case 2:
                // Heard with a bit error first, then the retransmission heard clean.
                var damaged = frame
                damaged[damaged.count - 1] ^= 0x01
                records.append(Self.record(damaged, at: original.timestamp, fcs: fcs))
                corrupted = records.count
                var retry = frame
                retry[1] |= 0x08
                records.append(Self.record(retry, at: original.timestamp + 300_000, fcs: HandBuiltCapture.crc32(retry)))
            case 7:
                // Cut by a 60-octet snap length: no FCS in the capture.
                records.append(
                    CaptureRecord(
                        timestamp: original.timestamp,
                        radiotap: Radiotap(channel: RadiotapChannel(ofdmAt: 2437)),
                        frame: Array(frame.prefix(60)),
                        originalLength: frame.count + 4 + 13
                    )
                )
                truncated = records.count
            default:
                records.append(Self.record(frame, at: original.timestamp, fcs: fcs))
                renumbered[index + 1] = records.count
                // Every unicast frame is heard twice: sent, then retransmitted with Retry set.
                if frame[4] & 0x01 == 0 {
                    var retry = frame
                    retry[1] |= 0x08
                    records.append(
                        Self.record(retry, at: original.timestamp + 200_000, fcs: HandBuiltCapture.crc32(retry))
                    )
                }
            }
        }
        let file = PcapFile(linkType: .ieee80211Radiotap, records: records).bytes
        let (_, read) = try AnalysisInputError.records(of: file, path: "sniffed.pcap")
        let sniffed = CaptureAnalyzer(profile: AnalysisProfile(serviceNames: ["_drone-service._udp"])).analyze(
            records: read
        )

        let direct = CaptureAnalyzer(profile: AnalysisProfile(serviceNames: ["_drone-service._udp"]))
            .analyze(records: session)
        let expected = direct.findings.map { finding in
            "\(finding.ruleID)@\(finding.frame.flatMap { renumbered[$0] } ?? -1)"
        }
        let notes = ["WA/CAP/FRAME-02@\(corrupted)", "WA/CAP/FRAME-01@\(truncated)"]
        let found = sniffed.findings.map { "\($0.ruleID)@\($0.frame ?? -1)" }
        #expect(found.sorted() == (expected + notes).sorted())
        #expect(sniffed.skippedFrameCount == 2)
        #expect(sniffed.frameCount == records.count)
    }
}
