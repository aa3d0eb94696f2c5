import Foundation
import Testing

@Suite struct DecodeCommandTests {
    @Test func decodesTheHostapSessionAsText() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["decode", "Fixtures/hostap-session-A/session.pcap"]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Frame 1: 198 octets, t=0.000000 s — SDF Publish"))
        #expect(outcome.standardOutput.contains("Frame 22: 235 octets"))
        #expect(outcome.standardOutput.contains("NAF Data Path Request"))
        #expect(outcome.standardOutput.contains("Service ID: 3425f17bda31"))
        #expect(outcome.standardOutput.hasSuffix("37 frames: 37 NAN, 0 not NAN, 0 malformed\n"))
    }

    @Test func jsonIsOneParseableObjectPerFrame() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["decode", "Fixtures/hostap-session-A/session.pcap", "--json"]
        )
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 37)
        for (index, line) in lines.enumerated() {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            )
            #expect(object["frame"] as? Int == index + 1)
            #expect(object["isNAN"] as? Bool == true)
            // Every attribute of the session is decoded: nothing is left as raw octets.
            #expect(!line.contains("\"raw\""), "frame \(index + 1) has undecoded octets")
        }
        // The SAE commit of PASN frame 1 (frame 14) is decoded inside its Wrapped Data.
        #expect(lines[13].contains("\"scalar\":\"6159d99448207256f14e41f25f601a247040ed1fd748b63e07c9270a454889eb\""))
    }

    @Test func hexOfOneFrame() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            [
                "decode",
                "d0 00 00 00 51 6f 9a 01 00 00 02 00 00 00 01 00 50 6f 9a 01 ab cd 10 00 04 09 50 6f 9a 13 03 0f 00 85 12 cc da be 18 01 00 10 05 68 65 6c 6c 6f",
            ]
        )
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("Service Info: 68656c6c6f"))
    }

    @Test func garbageExitsTwoWithAClearError() async throws {
        let outcome = try await CommandRunner.run("aware-conform", ["decode", "zz-not-a-frame"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("is neither an existing file nor hex octets of one 802.11 frame"))
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func aMalformedFrameIsShownAndExitsTwo() async throws {
        // An SDF whose SDA claims 15 octets but carries 9.
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["decode", "d0000000516f9a010000020000000100506f9a01abcd10000409506f9a13030f008512ccdabe180100"]
        )
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.contains("malformed"))
        #expect(outcome.standardOutput.contains("at offset 33"))
    }

    /// Issue 21, finding 9: the same bad input gave different exit statuses in decode and
    /// analyze. Not a capture is 2 in both; the system refusing an existing file is 3 in both.
    @Test func decodeAndAnalyzeAgreeOnInputThatIsNotACapture() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-dir-\(UUID().uuidString.prefix(6))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let decode = try await CommandRunner.run("aware-conform", ["decode", directory.path])
        let analyze = try await CommandRunner.run("aware-conform", ["analyze", directory.path])
        #expect(decode.status == 2)
        #expect(analyze.status == 2)
        #expect(decode.standardError.contains("not a pcap or pcapng capture (it is a directory or empty)"))
        #expect(analyze.standardError.contains("not a pcap or pcapng capture (it is a directory or empty)"))
    }

    /// Issue 21, finding 8: a capture whose last record is cut short (a sniffer killed
    /// mid-write) printed nothing of the whole frames before it.
    @Test func aCaptureCutInItsLastRecordPrintsTheFramesBeforeItThenTheError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-cut-\(UUID().uuidString.prefix(6))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try Data(contentsOf: URL(fileURLWithPath: "Fixtures/hostap-session-A/session.pcap"))
        let cut = directory.appendingPathComponent("cut.pcap")
        try session.dropLast(10).write(to: cut)

        let text = try await CommandRunner.run("aware-conform", ["decode", cut.path])
        #expect(text.status == 2)
        #expect(text.standardOutput.contains("Frame 36: "))
        #expect(!text.standardOutput.contains("Frame 37: "))
        #expect(text.standardOutput.hasSuffix("36 frames: 36 NAN, 0 not NAN, 0 malformed\n"))
        #expect(
            text.standardError.contains("cut.pcap: malformed capture: pcap record 37 header, incl_len at offset"),
            "\(text.standardError)"
        )

        let json = try await CommandRunner.run("aware-conform", ["decode", cut.path, "--json"])
        #expect(json.status == 2)
        #expect(json.standardOutput.split(separator: "\n").count == 36)
        #expect(json.standardError.contains("malformed capture"))
    }

    @Test func anUnknownOptionIsAUsageError() async throws {
        let outcome = try await CommandRunner.run("aware-conform", ["decode", "--no-such-option", "00"])
        #expect(outcome.status == 2)
    }
}

/// The JSON Lines of `decode --json` are a documented contract (docs/reference/decode-json.md):
/// every top-level key a real run prints must be one the document's frame table names.
@Suite struct DecodeJSONContractTests {
    static func documentedFrameKeys() throws -> Set<String> {
        let document = try String(
            contentsOf: CommandRunner.repository.appendingPathComponent("docs/reference/decode-json.md"),
            encoding: .utf8
        )
        guard let start = document.range(of: "## A frame object"),
            let end = document.range(of: "### Bodies")
        else { return [] }
        var keys: Set<String> = []
        for line in document[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for part in cell.split(separator: ",") {
                keys.insert(
                    part.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                )
            }
        }
        return keys
    }

    @Test func everyPrintedKeyIsDocumented() async throws {
        let documented = try Self.documentedFrameKeys()
        #expect(
            documented.isSuperset(of: [
                "frame", "length", "capture", "header", "frameKind", "isNAN", "body", "error", "raw",
            ])
        )
        let inputs = [
            "Fixtures/hostap-session-A/session.pcap",
            // An SDF whose SDA is cut short: a malformed frame.
            "d0000000516f9a010000020000000100506f9a01abcd10000409506f9a13030f008512ccdabe180100",
            // A data frame: not management, not NAN.
            "08010000020000000001020000000002020000000003000000aa",
        ]
        var seen: Set<String> = []
        for input in inputs {
            let outcome = try await CommandRunner.run("aware-conform", ["decode", input, "--json"])
            for line in outcome.standardOutput.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                seen.formUnion(object.keys)
                #expect(object["frameKind"] is String)
            }
        }
        #expect(seen.isSubset(of: documented), "undocumented keys: \(seen.subtracting(documented).sorted())")
        #expect(seen.contains("error") && seen.contains("body") && seen.contains("frameControl"))
    }
}
