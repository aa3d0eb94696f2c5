import AwareAnalysis
import AwareCore
import AwareWire
import Foundation
import Testing

/// Issue 21, finding 8: `analyze` read the whole file, then held every frame. It now reads the
/// file twice, record by record (``CaptureFileAnalysis``), and keeps what the rules learned.
@Suite struct CaptureFileAnalysisTests {
    static let path = "Fixtures/hostap-session-A/session.pcap"
    static let profile = AnalysisProfile(
        serviceNames: ["_drone-service._udp"],
        vendorName: "Example Inc",
        modelName: "Example Model",
        pairingName: "My Drone",
        offersPairing: true
    )

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analysis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("two passes over the file give the report of the frames held in memory")
    func sameReportAsInMemory() throws {
        let analyzer = CaptureAnalyzer(profile: Self.profile)
        let records = try CaptureReader.read(bytes: try FileContents.read(Self.path))
        let outcome = try CaptureFileAnalysis.analyze(path: Self.path, with: analyzer)
        #expect(outcome.format == .pcap)
        #expect(outcome.stoppedBy == nil)
        #expect(outcome.report == analyzer.analyze(records: records))
        #expect(outcome.report.frameCount == 37)
        #expect(!outcome.report.findings.isEmpty)
    }

    @Test("a capture cut short has the frames before the cut analyzed, and the error beside the report")
    func cutShort() throws {
        let session = try FileContents.read(Self.path)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = directory.appendingPathComponent("cut.pcap").path
        try Data(session.dropLast(10)).write(to: URL(fileURLWithPath: cut))
        let analyzer = CaptureAnalyzer(profile: Self.profile)
        let outcome = try CaptureFileAnalysis.analyze(path: cut, with: analyzer)
        let (records, error) = CaptureReader.readAvailable(bytes: Array(session.dropLast(10)))
        #expect(outcome.report == analyzer.analyze(records: records))
        #expect(outcome.report.frameCount == 36)
        #expect(outcome.stoppedBy == .malformedCapture(path: cut, error: try #require(error)))

        // Cut inside the first record: nothing to analyze.
        let first = directory.appendingPathComponent("first.pcap").path
        try Data(session.prefix(30)).write(to: URL(fileURLWithPath: first))
        #expect(throws: AnalysisInputError.self) { _ = try CaptureFileAnalysis.analyze(path: first, with: analyzer) }
    }

    @Test(
        "a FIFO, which cannot be read twice, is copied to a temporary file that both passes read, and that goes",
        .timeLimit(.minutes(1))
    )
    func fifo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sniffer.pcap").path
        #expect(mkfifo(path, 0o600) == 0)
        let session = try FileContents.read(Self.path)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(Data(session))
            try? handle.close()
        }
        writer.start()
        let analyzer = CaptureAnalyzer(profile: Self.profile)
        let outcome = try CaptureFileAnalysis.analyze(path: path, with: analyzer)
        #expect(outcome.stoppedBy == nil)
        #expect(outcome.report == analyzer.analyze(records: try CaptureReader.read(bytes: session)))
        let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("aware-conform-analyze-\(getpid())-") }
        #expect(left.isEmpty, "the copy is removed: \(left)")
    }
}
