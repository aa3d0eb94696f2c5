import AwareAnalysis
import AwareCore
import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

@Suite struct DecodeRunTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sessionPath = repository.appendingPathComponent("Fixtures/hostap-session-A/session.pcap").path

    /// The platform-notes.md 4 hand-crafted SDF (an independent Python build of the bytes).
    static let handCraftedSDF =
        "d0000000516f9a010000020000000100506f9a01abcd10000409506f9a13030f008512ccdabe180100100568656c6c6f0e0c00"
        + "0100000700506f9a02010203"

    /// Every frame of `argument`, decoded, and the run that counted them.
    static func decode(_ argument: String) throws -> (frames: [DecodedFrame], run: DecodeRun) {
        var run = DecodeRun(try DecodeInput.load(argument))
        var frames: [DecodedFrame] = []
        while let frame = try run.next() { frames.append(frame) }
        return (frames, run)
    }

    @Test func hexInputIsOneFrame() throws {
        let (frames, run) = try Self.decode(Self.handCraftedSDF)
        #expect(frames.count == 1)
        #expect(frames[0].verdict == .nan)
        #expect(frames[0].summary == "SDF Publish")
        #expect(run.summary == "1 frame: 1 NAN, 0 not NAN, 0 malformed")
    }

    @Test func sessionCaptureDecodesEveryFrame() throws {
        let (frames, run) = try Self.decode(Self.sessionPath)
        #expect(frames.count == 37)
        #expect(run.nanCount == 37)
        #expect(frames.map(\.number) == Array(1...37))
        #expect(frames[13].summary == "PASN Authentication 1")
        #expect(frames[21].summary == "NAF Data Path Request")
        #expect(frames[3].summary == "SDF Follow-up")
    }

    /// Issue 21, finding 8: a capture whose last block is cut short printed nothing of the
    /// frames before it. The run hands out every whole frame, then the error with its offset.
    @Test func aCaptureCutInItsLastRecordGivesTheFramesBeforeItThenTheError() throws {
        let session = try FileContents.read(Self.sessionPath)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cut.pcap").path
        try Data(session.dropLast(10)).write(to: URL(fileURLWithPath: path))
        var run = DecodeRun(try DecodeInput.load(path))
        var numbers: [Int] = []
        var stoppedBy: DecodeInputError?
        do {
            while let frame = try run.next() { numbers.append(frame.number) }
        } catch {
            stoppedBy = error
        }
        #expect(numbers == Array(1...36))
        #expect(run.summary == "36 frames: 36 NAN, 0 not NAN, 0 malformed")
        guard case .malformedCapture(path, let error)? = stoppedBy else {
            Issue.record("expected the cut to be reported, got \(String(describing: stoppedBy))")
            return
        }
        // The last record's header says more octets than the file still has.
        let lastRecord = try #require(Self.recordOffsets(session).last)
        #expect(error.structure == "pcap record 37 header")
        #expect(error.field == "incl_len")
        #expect(error.offset == lastRecord + 16)
        #expect(try run.next() == nil)
    }

    /// The file offset of each record header of a little-endian pcap file.
    static func recordOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 24
        while offset + 16 <= bytes.count {
            offsets.append(offset)
            offset += 16 + (Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8 | Int(bytes[offset + 10]) << 16)
        }
        return offsets
    }

    @Test func anOrdinaryBeaconIsListedAsNotNAN() throws {
        // A hand-built AP beacon: FC 80 00, broadcast A1, SSID "lab", no NAN element.
        let beacon =
            "8000" + "0000" + "ffffffffffff" + "020000000009" + "020000000009" + "0000"
            + "0000000000000000" + "6400" + "0104" + "00036c6162"
        let (frames, run) = try Self.decode(beacon)
        #expect(frames[0].verdict == .notNAN)
        #expect(frames[0].summary == "Beacon (not NAN)")
        #expect(run.malformedCount == 0)
    }

    @Test func aDataFrameIsListedAsNotNAN() throws {
        let (frames, _) = try Self.decode("08010000020000000001020000000002020000000003000000aa")
        #expect(frames[0].summary == "Data (not NAN)")
    }

    @Test func aTruncatedSDFIsMalformedWithItsOffset() throws {
        // The hand-crafted SDF cut inside its SDA: the SDA says 15 octets, 9 remain.
        let cut = String(Self.handCraftedSDF.prefix(2 * 45))
        let frame = try Self.decode(cut).frames[0]
        #expect(frame.verdict == .malformed)
        guard case .failure(let error) = frame.result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.offset == 33)
        #expect(error.kind == .lengthMismatch(declared: 15, actual: 12))
        guard case .object(let members) = frame.json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.0) == ["frame", "length", "frameKind", "error", "raw"])
    }

    @Test func garbageIsAnInputError() {
        #expect(throws: DecodeInputError.neitherFileNorHex("not hex at all")) {
            _ = try DecodeInput.load("not hex at all")
        }
        #expect(throws: DecodeInputError.neitherFileNorHex("abc")) {
            _ = try DecodeInput.load("abc")
        }
    }

    @Test func aFileThatIsNoCaptureIsAnInputError() throws {
        let path = Self.repository.appendingPathComponent("Package.swift").path
        #expect(throws: DecodeInputError.notACapture(path: path, firstOctets: Array("// s".utf8))) {
            _ = try DecodeInput.load(path)
        }
    }

    @Test func jsonCarriesEveryFieldUnderItsName() throws {
        let frame = try Self.decode(Self.handCraftedSDF).frames[0]
        let text = frame.json.serialized
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        )
        #expect(object["frameKind"] as? String == "SDF Publish")
        let header = try #require(object["header"] as? [String: Any])
        #expect(header["address2"] as? String == "02:00:00:00:01:00")
        #expect(header["address3"] as? String == "50:6f:9a:01:ab:cd")
        let body = try #require(object["body"] as? [String: Any])
        let attributes = try #require(body["attributes"] as? [[String: Any]])
        #expect(attributes.count == 2)
        #expect(attributes[0]["serviceID"] as? String == "8512ccdabe18")
        #expect(attributes[0]["serviceInfo"] as? String == "68656c6c6f")
        #expect(attributes[0]["instanceID"] as? Int == 1)
        let type = try #require(attributes[0]["serviceControlType"] as? [String: Any])
        #expect(type["name"] as? String == "Publish")
        #expect(type["value"] as? Int == 0)
        // Every attribute here is decoded, so no `raw` key appears anywhere.
        #expect(!text.contains("\"raw\""))
    }
}
