import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

@Suite struct RunnerEvidenceTests {
    static func eventName(_ line: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["event"] as? String)
    }

    static func files(under directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: "\(directory)/\(path)", isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue
        }.sorted()
    }

    @Test func evidenceKeepsEveryTestThatRan() throws {
        let directory = Synthetic.temporaryDirectory() + "/evidence"
        let result = try TestRunner(
            catalogue: Synthetic.mixedCatalogue(),
            configuration: Synthetic.configuration(evidence: .everyTest(directory: directory))
        ).run()
        #expect(
            Self.files(under: directory) == [
                "WA_DISC_MF_BV-03/capture.pcap", "WA_DISC_MF_BV-03/events.jsonl",
                "WA_DISC_SD_BI-01/capture.pcap", "WA_DISC_SD_BI-01/events.jsonl",
                "WA_DISC_SD_BV-01/capture.pcap", "WA_DISC_SD_BV-01/events.jsonl",
                "WA_DISC_SD_BV-02/capture.pcap", "WA_DISC_SD_BV-02/events.jsonl",
                "WA_PAIR_BV-01/capture.pcap", "WA_PAIR_BV-01/events.jsonl",
            ]
        )
        let passed = try #require(result.tests.first { $0.id.description == "WA/DISC/SD/BV-01" })
        #expect(passed.evidenceDirectory == "\(directory)/WA_DISC_SD_BV-01")
        #expect(passed.iterations[0].evidence?.events == "\(directory)/WA_DISC_SD_BV-01/events.jsonl")
        #expect(passed.rerunCommand == nil)
        let skipped = try #require(result.tests.first { $0.verdict == .skip })
        #expect(skipped.evidenceDirectory == nil)

        // The capture holds the frame the body captured; the events are the documented lines.
        let pcap = try PcapFile(
            bytes: Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/WA_DISC_SD_BV-01/capture.pcap")))
        )
        #expect(pcap.records.map(\.frame) == [[0xD0, 0x00, 0x00, 0x00, UInt8(passed.seed & 0xFF)]])
        let events = try String(contentsOfFile: "\(directory)/WA_DISC_SD_BV-01/events.jsonl", encoding: .utf8)
        let lines = events.split(separator: "\n").map(String.init)
        #expect(try lines.map(Self.eventName) == ["test-started", "publish-seen", "test-finished"])
        #expect(
            lines[0]
                == "{\"t\":0,\"event\":\"test-started\",\"budget\":10.0,\"id\":\"WA/DISC/SD/BV-01\",\"iteration\":1,"
                + "\"seed\":\"\(passed.seed)\",\"title\":\"Solicited publish answers an active subscribe\"}"
        )
        #expect(lines[1].hasPrefix("{\"t\":0.524288,\"event\":\"publish-seen\",\"draw\":"))
        #expect(lines[2] == "{\"t\":1.5,\"event\":\"test-finished\",\"verdict\":\"pass\"}")
        let failed = try String(contentsOfFile: "\(directory)/WA_DISC_MF_BV-03/events.jsonl", encoding: .utf8)
        #expect(failed.contains("{\"t\":2,\"event\":\"expectation-failed\",\"location\":\"RunnerSyntheticTests.swift:"))
    }

    @Test func withoutEvidenceOnlyFailingTestsKeepTheirsUnderTheRunID() throws {
        let root = Synthetic.temporaryDirectory()
        var configuration = Synthetic.configuration(evidence: .failingTests(root: root))
        configuration.runID = nil
        let output = CapturedOutput()
        let result = try TestRunner(catalogue: Synthetic.mixedCatalogue(), configuration: configuration)
            .run(observer: ConsoleReporter(style: .plain) { output.write($0) })
        let runID = result.metadata.runID
        #expect(runID.hasSuffix("-seed-42"))
        #expect(runID.count == "20260512-141503-123-seed-42".count)
        let directory = "\(root)/\(runID)"
        #expect(result.metadata.evidenceDirectory == directory)
        #expect(
            Self.files(under: directory) == [
                "WA_DISC_MF_BV-03/capture.pcap", "WA_DISC_MF_BV-03/events.jsonl",
                "WA_DISC_SD_BI-01/capture.pcap", "WA_DISC_SD_BI-01/events.jsonl",
            ]
        )
        #expect(output.value.contains("evidence: \(directory)/WA_DISC_MF_BV-03\n"))
        #expect(output.value.contains("evidence (failing tests): \(directory)\n"))
    }

    @Test func iterationsKeepOneDirectoryEach() throws {
        let directory = Synthetic.temporaryDirectory()
        let catalogue = try TestCatalogue([
            Synthetic.test("WA/DISC/BV-01") { context in
                context.attach("emulator.log", contents: Array("iteration \(context.iteration)\n".utf8))
                context.attach("../escape.log", contents: [0x41])
                context.expect(context.iteration == 1, "iteration \(context.iteration) fails")
            }
        ])
        let failingOnly = try TestRunner(
            catalogue: catalogue,
            configuration: Synthetic.configuration(iterations: 3, evidence: .failingTests(root: directory))
        ).run()
        #expect(
            Self.files(under: "\(directory)/test-run") == [
                "WA_DISC_BV-01/iteration-2/capture.pcap", "WA_DISC_BV-01/iteration-2/emulator.log",
                "WA_DISC_BV-01/iteration-2/events.jsonl", "WA_DISC_BV-01/iteration-3/capture.pcap",
                "WA_DISC_BV-01/iteration-3/emulator.log", "WA_DISC_BV-01/iteration-3/events.jsonl",
            ]
        )
        #expect(failingOnly.tests[0].iterations.map { $0.evidence == nil } == [true, false, false])
        #expect(
            failingOnly.tests[0].iterations[1].evidence?.attachments
                == ["\(directory)/test-run/WA_DISC_BV-01/iteration-2/emulator.log"]
        )
        let log = try String(
            contentsOfFile: "\(directory)/test-run/WA_DISC_BV-01/iteration-3/emulator.log",
            encoding: .utf8
        )
        #expect(log == "iteration 3\n")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/test-run/escape.log"))
    }

    @Test func theSameSeedWritesTheSameBytes() throws {
        func evidence(seed: UInt64) throws -> [String: Data] {
            let directory = Synthetic.temporaryDirectory()
            _ = try TestRunner(
                catalogue: Synthetic.mixedCatalogue(),
                configuration: Synthetic.configuration(seed: seed, jobs: 3, evidence: .everyTest(directory: directory))
            ).run()
            var contents: [String: Data] = [:]
            for file in Self.files(under: directory) {
                contents[file] = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(file)"))
            }
            return contents
        }
        let first = try evidence(seed: 5)
        #expect(first.count == 10)
        #expect(try evidence(seed: 5) == first)
        #expect(try evidence(seed: 6) != first)
    }

    @Test func evidenceThatCannotBeWrittenIsAnEnvironmentError() throws {
        let blocker = Synthetic.temporaryDirectory() + "/file"
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = try TestRunner(
            catalogue: try TestCatalogue([Synthetic.test("WA/DISC/BV-01", Synthetic.passes)]),
            configuration: Synthetic.configuration(evidence: .everyTest(directory: blocker))
        ).run()
        #expect(result.tests[0].verdict == .pass)
        #expect(result.problems.count == 1)
        #expect(
            result.problems[0].hasPrefix("could not write the evidence of WA/DISC/BV-01 to \(blocker)/WA_DISC_BV-01")
        )
        #expect(result.exitCode == .environmentError)
    }
}
