import AwareAnalysis
import AwareTestSupport
import AwareWire
import ConformanceKit
import Foundation
import Testing

/// The analyzer on hostap session A (Fixtures/hostap-session-A), a real hostap pairing
/// session whose README and transcript describe every frame. What it must find, and why:
///
/// - WA/CAP/PROT-01 at the nine category-9 frames the transcript lists as
///   `plaintext_category9_frames` (hostap leaves the NM-TK protection to a driver the recording
///   did not have, so they went out with the Protected bit clear), and at frame 34, the
///   unicast Publish the README says went back to category 4 after the harness's simulated
///   unpair: on the air nothing ended the pairing of frames 14-16 before the PASN of frame 35.
/// - WA/CAP/SDF-DW-01 as one note at frame 1: every SDF has A3 = Cluster ID 50:6f:9a:01:12:34
///   but the recording has no beacons (README, "Limitations"), so the windows cannot be placed.
/// - Nothing else: the service ID is the hash of `_drone-service._udp`, the TXT values are the
///   drone profile's, every accessory SDF carries a NIRA, the bootstrapping answer (frame 13,
///   0x0002) is the complement of the request (frame 4, 0x0020).
@Suite struct AnalysisHostapSessionTests {
    static let path = "Fixtures/hostap-session-A/session.pcap"

    func report() throws -> AnalysisReport {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.path)))
        let (_, records) = try AnalysisInputError.records(of: bytes, path: Self.path)
        let profile = AnalysisProfile(
            serviceNames: ["_drone-service._udp"],
            vendorName: "Example Inc",
            modelName: "Example Model",
            pairingName: "My Drone",
            offersPairing: true
        )
        return CaptureAnalyzer(profile: profile).analyze(records: records)
    }

    @Test func findsThePlaintextFramesAfterPairingAndNothingElse() throws {
        let result = try report()
        #expect(result.frameCount == 37)
        #expect(result.nanFrameCount == 37)
        // Setup (frames 14-16) and verification (35-37).
        #expect(result.pairingCount == 2)
        let transcript = try SessionFixture.transcript()
        let plaintext = try #require(SessionFixture.value(transcript, "plaintext_category9_frames") as? [Int])
        let errors = result.findings.filter { $0.severity == .error }
        #expect(Set(errors.map(\.ruleID)) == ["WA/CAP/PROT-01"])
        #expect(errors.compactMap(\.frame) == (plaintext + [34]).sorted())
        let notes = result.findings.filter { $0.severity != .error }
        #expect(notes.map(\.ruleID) == ["WA/CAP/SDF-DW-01"])
        #expect(notes.first?.frame == 1)
        #expect(result.findings.first { $0.frame == 34 }?.message.contains("category 4") == true)
    }

    /// tshark, independently: the frames with category 9 are the transcript's list, and the
    /// unicast action frames between the two NMIs after PASN frame 3 are the errors found.
    @Test func tsharkAgreesOnTheFrames() throws {
        let category9 = try ExternalTool.tshark(
            ["-r", Self.path, "-Y", "wlan.fixed.category_code == 9", "-T", "fields", "-e", "frame.number"]
        )
        #expect(category9.status == 0, "\(category9.errors)")
        let numbers = category9.output.split(separator: "\n").compactMap { Int($0) }
        #expect(numbers == [17, 18, 21, 22, 23, 24, 25, 28, 31])
        let unicastAfterPairing = try ExternalTool.tshark([
            "-r", Self.path, "-Y",
            "frame.number > 16 && frame.number < 35 && wlan.fc.type_subtype == 0x000d && wlan.fc.protected == 0 "
                + "&& !(wlan.ra[0] & 1)",
            "-T", "fields", "-e", "frame.number",
        ])
        let expected = unicastAfterPairing.output.split(separator: "\n").compactMap { Int($0) }
        let found = try report().findings.filter { $0.ruleID == "WA/CAP/PROT-01" }.compactMap(\.frame)
        #expect(found == expected)
    }
}
