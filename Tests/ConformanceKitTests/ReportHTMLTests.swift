import AwareCore
import AwareTestSupport
import AwareWire
import Foundation
import Testing

@testable import ConformanceKit

/// The HTML report of synthetic runs, judged by Python's XML and HTML parsers and, for the sequence
/// diagram, by tshark's count of the capture's frames.
@Suite struct ReportHTMLTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// A real capture: hostap's pairing and data path session, 802.11 with radiotap.
    static let fixture = repository.appendingPathComponent("Fixtures/hostap-session-A/session.pcap").path

    static let hostile = "<script>alert('x')</script> & \"quoted\" <img src=x onerror=alert(1)> http://evil.example/"

    /// Pass, fail, error, skip and timeout; a failing test that keeps the fixture as its capture and
    /// fails with hostile text in its message, title and location-free fields.
    static func run(evidence: String) throws -> RunResult {
        var tests = Synthetic.mixedCatalogue().tests
        let capture = try Data(contentsOf: URL(fileURLWithPath: fixture))
        tests.append(
            Synthetic.test("WA/PAIR/BV-30", "Title " + hostile) { context in
                context.setCapture(pcap: [UInt8](capture))
                context.advanceVirtualTime(to: Instant(nanoseconds: 3_000_000_000))
                context.fail("message " + hostile)
            }
        )
        tests.append(
            Synthetic.test("WA/PAIR/BV-31", "Hangs", wallLimit: .milliseconds(100)) { _ in
                Thread.sleep(forTimeInterval: 0.4)
            }
        )
        var configuration = Synthetic.configuration(evidence: .everyTest(directory: evidence))
        configuration.rerun = RerunCommand(baseArguments: ["aware-conform", "run", "--profile", "P's <b>.json"])
        return try TestRunner(catalogue: try TestCatalogue(tests), configuration: configuration).run()
    }

    static func write(_ run: RunResult, page: String, workingDirectory: String) throws -> HTMLJudge.Findings {
        let html = HTMLReport(run: run, pagePath: page, workingDirectory: workingDirectory).render()
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        return try HTMLJudge.judge(page)
    }

    @Test func oneSectionPerTestWithItsVerdictFailingFirst() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)

        let expected = Dictionary(uniqueKeysWithValues: run.tests.map { ($0.id.description, $0.verdict.rawValue) })
        #expect(findings.sections.count == run.tests.count)
        #expect(Dictionary(uniqueKeysWithValues: findings.sections.map { ($0.id, $0.verdict) }) == expected)
        #expect(findings.sections.allSatisfy { $0.label == $0.verdict.uppercased() })
        #expect(Set(expected.values) == ["pass", "fail", "skip", "error", "timeout"])
        // Every failing section comes before every passing or skipped one.
        let failing = ["fail", "error", "timeout"]
        let firstOther = findings.sections.firstIndex { !failing.contains($0.verdict) } ?? findings.sections.count
        #expect(findings.sections[firstOther...].allSatisfy { !failing.contains($0.verdict) })
        #expect(firstOther == run.tests.count { $0.verdict.isFailing })
    }

    @Test func hostileTextIsTextAndNothingLoadsFromOutside() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)
        #expect(findings.activeElements.isEmpty, "\(findings.activeElements)")
        #expect(findings.handlers.isEmpty, "\(findings.handlers)")
        #expect(findings.styleReferences.isEmpty, "\(findings.styleReferences)")
        #expect(findings.links.allSatisfy { !HTMLJudge.isExternal($0) }, "\(findings.links)")
        // The parser hands back exactly the hostile strings as text: escaped once, not dropped.
        #expect(findings.text.contains("Title " + Self.hostile))
        #expect(findings.text.contains("message " + Self.hostile))
        #expect(findings.text.contains("'P'\\''s <b>.json'"))
    }

    @Test func theDiagramHasOneArrowPerFrameThatTsharkCounts() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)
        let frames = try HTMLJudge.tsharkFrameCount(Self.fixture)
        #expect(frames > 10)
        let section = try #require(findings.sections.first { $0.id == "WA/PAIR/BV-30" })
        #expect(section.arrows == frames)
        #expect(section.missing == 0)
        // The other failing tests captured nothing: their diagrams have no arrows.
        for other in findings.sections where other.id != "WA/PAIR/BV-30" {
            #expect(other.arrows == 0, "\(other.id)")
        }
    }

    @Test func evidenceLinksAreRelativeToThePageAndReachTheFiles() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Evidence given relative to the working directory, the page one level below it.
        try FileManager.default.createDirectory(atPath: directory + "/pages", withIntermediateDirectories: true)
        let run = try Self.run(evidence: directory + "/evidence")
        let page = directory + "/pages/report.html"
        let findings = try Self.write(run, page: page, workingDirectory: directory)
        let files = findings.links.filter { !$0.hasPrefix("#") }
        #expect(files.count >= run.tests.count { !$0.iterations.isEmpty } * 3)
        for link in files {
            #expect(link.hasPrefix("../evidence/"), "\(link)")
            let target = URL(fileURLWithPath: directory + "/pages").appendingPathComponent(
                link.removingPercentEncoding ?? link
            ).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: target), "\(link) -> \(target)")
        }
        let linker = EvidenceLinker(pagePath: "out/r.html", workingDirectory: "/w")
        #expect(linker.href("ev/WA_DISC_MF_BV-03/capture.pcap") == "../ev/WA_DISC_MF_BV-03/capture.pcap")
        #expect(linker.href("/w/out/a b#c.pcap") == "a%20b%23c.pcap")
        #expect(linker.href("/w/out/x:y/z") == "./x:y/z")
    }

    @Test func aMissingOrBrokenCaptureIsMarkedAndTheRestRenders() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var run = try Self.run(evidence: directory + "/evidence")
        let index = try #require(run.tests.firstIndex { $0.id.description == "WA/PAIR/BV-30" })
        let capture = try #require(run.tests[index].iterations.first?.evidence?.capture)
        try FileManager.default.removeItem(atPath: capture)
        let other = try #require(run.tests.firstIndex { $0.id.description == "WA/DISC/MF/BV-03" })
        let broken = try #require(run.tests[other].iterations.first?.evidence?.capture)
        try Data("not a capture at all".utf8).write(to: URL(fileURLWithPath: broken))
        // A failing test that kept no evidence at all.
        let unkept = try #require(run.tests.firstIndex { $0.id.description == "WA/DISC/SD/BI-01" })
        #expect(run.tests[unkept].verdict == .error)
        run.tests[unkept].iterations[0].evidence = nil
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)
        #expect(findings.sections.count == run.tests.count)
        for id in ["WA/PAIR/BV-30", "WA/DISC/MF/BV-03", "WA/DISC/SD/BI-01"] {
            let section = try #require(findings.sections.first { $0.id == id })
            #expect(section.missing == 1 && section.arrows == 0, "\(id)")
        }
        #expect(findings.text.contains("\(capture) is missing"))
        #expect(findings.text.contains("\(broken) is not a pcap or pcapng capture"))
        #expect(findings.text.contains("no evidence was kept for this test"))
    }

    @Test func aTruncatedCaptureIsMarkedMalformed() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let index = try #require(run.tests.firstIndex { $0.id.description == "WA/PAIR/BV-30" })
        let capture = try #require(run.tests[index].iterations.first?.evidence?.capture)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: capture))
        try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: capture))
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)
        let section = try #require(findings.sections.first { $0.id == "WA/PAIR/BV-30" })
        #expect(section.missing == 1 && section.arrows == 0)
        #expect(findings.text.contains("\(capture) is malformed"))
    }

    @Test func summaryNamesTheRunAndEveryRerunCommand() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.run(evidence: directory + "/evidence")
        let findings = try Self.write(run, page: directory + "/report.html", workingDirectory: directory)
        #expect(findings.text.contains("FAILED: \(run.tests.count { $0.verdict.isFailing }) of \(run.tests.count)"))
        #expect(findings.text.contains("Profiles/drone.json"))
        #expect(findings.text.contains("--seed 42"))
        for test in run.tests {
            if let rerun = test.rerunCommand { #expect(findings.text.contains(rerun)) }
        }
    }

    /// A PIN and a key the test logged (as the accessory's display events carry them) stay in the
    /// evidence: the page shows verdicts, messages and frames, never the event stream's values.
    @Test func aLoggedPINOrKeyDoesNotReachThePage() throws {
        let directory = Synthetic.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let test = Synthetic.test("WA/PAIR/BV-40", "Pairs") { context in
            context.log("pin-displayed", ["pin": .string("483920")])
            context.log("keys-derived", ["npk": .string("9f1c2ab45e77d0c3")])
            context.expect(false, "pairing with the displayed PIN")
        }
        let configuration = Synthetic.configuration(evidence: .everyTest(directory: directory + "/evidence"))
        let run = try TestRunner(catalogue: try TestCatalogue([test]), configuration: configuration).run()
        let page = directory + "/report.html"
        _ = try Self.write(run, page: page, workingDirectory: directory)
        let source = try String(contentsOfFile: page, encoding: .utf8)
        let events = try String(
            contentsOfFile: try #require(run.tests[0].iterations[0].evidence?.events),
            encoding: .utf8
        )
        #expect(events.contains("483920"))
        #expect(!source.contains("483920"))
        #expect(!source.contains("9f1c2ab45e77d0c3"))
    }
}
