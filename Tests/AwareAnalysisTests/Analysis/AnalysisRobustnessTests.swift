import AwareAnalysis
import AwareCore
import AwareWire
import ConformanceKit
import Testing

/// Bad input never traps: a capture that cannot be read is a typed error naming the offset, and
/// anything that can be read gives a report. A trap here would end the test process.
@Suite struct AnalysisRobustnessTests {
    /// A valid capture with a beacon, a pairing, publishes and follow-ups.
    static let seed: [UInt8] = HandBuiltCapture.pcap(
        [HandBuiltCapture.beacon(tsf: 0), HandBuiltCapture.publish(nira: true)] + HandBuiltCapture.pairing + [
            HandBuiltCapture.sdf(to: HandBuiltCapture.phone, attributes: [HandBuiltCapture.sda(type: 2)]),
            HandBuiltCapture.publish(txt: ["vendorName=" + String(repeating: "x", count: 70)]),
        ]
    )

    /// Either a typed error (with an offset inside the file) or a report over some frames.
    func analyzeOrFail(_ bytes: [UInt8]) -> Result<AnalysisReport, AnalysisInputError> {
        do {
            let (_, records) = try AnalysisInputError.records(of: bytes, path: "mutant.pcap")
            return .success(CaptureAnalyzer().analyze(records: records))
        } catch {
            return .failure(error)
        }
    }

    @Test func everyTruncationOfAValidCaptureIsAnErrorOrAReport() {
        var errors = 0
        for length in 0..<Self.seed.count {
            switch analyzeOrFail(Array(Self.seed.prefix(length))) {
            case .failure(.malformedCapture(_, let error)):
                errors += 1
                #expect(error.offset <= length, "offset \(error.offset) past the end of \(length) octets")
            case .failure(.notACapture):
                errors += 1
                #expect(length < 4)
            case .failure(let other):
                Issue.record("unexpected error \(other)")
            case .success(let report):
                #expect(report.frameCount <= 8)
            }
        }
        #expect(errors > 0)
        // The whole file reads, and its 70-octet TXT value is found.
        guard case .success(let report) = analyzeOrFail(Self.seed) else {
            Issue.record("the seed capture does not read")
            return
        }
        #expect(report.findings.contains { $0.ruleID == "WA/CAP/TXT-01" && $0.frame == 7 })
    }

    @Test func randomMutationsOfAValidCaptureNeverTrap() {
        var generator = SeededGenerator(seed: 0x6A6E_616C_7973_6973)
        var outcomes = (errors: 0, reports: 0, findings: 0)
        for _ in 0..<3_000 {
            var bytes = Self.seed
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            switch analyzeOrFail(bytes) {
            case .failure: outcomes.errors += 1
            case .success(let report):
                outcomes.reports += 1
                outcomes.findings += report.findings.count
            }
        }
        // Mutations land in headers and in frames alike: both outcomes must happen.
        #expect(outcomes.errors > 0)
        #expect(outcomes.reports > 0)
        #expect(outcomes.findings > 0)
    }

    @Test func randomOctetsAreATypedError() {
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 3, 4, 23, 24, 100, 1_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .success = analyzeOrFail(bytes) {
                Issue.record("\(length) random octets read as a capture")
            }
        }
        // A pcap header followed by random records: an error or a report, never a trap.
        for _ in 0..<500 {
            let tail = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = analyzeOrFail(Array(Self.seed.prefix(24)) + tail)
        }
    }

    @Test func aCaptureCutShortStillYieldsTheFramesBeforeTheCut() throws {
        // Frame sizes of the seed, from its record headers: cut 5 octets into each record's data.
        var offset = 24
        var frames = 0
        while offset + 16 <= Self.seed.count {
            let length = Int(Self.seed[offset + 8]) | Int(Self.seed[offset + 9]) << 8
            let cut = Array(Self.seed.prefix(offset + 16 + min(5, length - 1)))
            if frames == 0 {
                #expect(throws: AnalysisInputError.self) {
                    try AnalysisInputError.availableRecords(of: cut, path: "cut.pcap")
                }
            } else {
                let (_, records, stoppedBy) = try AnalysisInputError.availableRecords(of: cut, path: "cut.pcap")
                #expect(records.count == frames)
                #expect(
                    stoppedBy?.description.hasPrefix("cut.pcap at offset \(offset + 16): malformed capture") == true
                )
            }
            frames += 1
            offset += 16 + length
        }
        #expect(frames == 7)
        let (_, records, stoppedBy) = try AnalysisInputError.availableRecords(of: Self.seed, path: "whole.pcap")
        #expect(records.count == 7)
        #expect(stoppedBy == nil)
    }

    @Test func theErrorNamesTheFileAndTheOffset() {
        // Cut inside the first record header (octets 24-39): ts_sec (24-27) is there, ts_usec
        // (28-31) is not.
        let cut = Array(Self.seed.prefix(30))
        guard case .failure(let error) = analyzeOrFail(cut) else {
            Issue.record("a capture cut inside a record header read")
            return
        }
        #expect(error.description.hasPrefix("mutant.pcap at offset 28: malformed capture"), "\(error)")
    }
}
