import ArgumentParser
import AwareAnalysis
import AwareCommandLine
import AwareWire
import ConformanceKit
import Foundation

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode Wi-Fi Aware frames: one frame as hex, or a pcap / pcapng capture.",
        discussion: """
            Prints every field of every frame, element and NAN attribute, like a tshark focused on \
            Wi-Fi Aware: Service Discovery Frames, NAN Action Frames, NAN beacons and PASN \
            Authentication frames (including the SAE commit and confirm inside Wrapped Data).

            INPUT is either a file or hex:
              - a capture file, classic pcap or pcapng (told apart by its magic), with link type 105 \
            (802.11) or 127 (802.11 + radiotap; channel and signal are shown);
              - hex octets of ONE 802.11 frame starting at Frame Control, without FCS (spaces and \
            colons are ignored).

            Frames that are not NAN (an ordinary beacon in a sniffer capture) are listed as such. A \
            frame that does not parse is shown with an error that names the structure, the field and \
            the byte offset (counted from Frame Control).

            --json prints one JSON object per frame per line (JSON Lines): `frame` (number), \
            `length`, `capture` (timestamp, link type, radiotap), `header`, `frameKind` ("SDF Publish", \
            "Beacon (not NAN)", "malformed"), `isNAN`, then `body` with every decoded field under its \
            own lowerCamelCase name; byte strings are lower-case hex, enumerations are \
            {"value": n, "name": "..."}, and undecoded octets appear only under `raw`. See \
            docs/reference/decode-json.md.

            Exit status: 0 when every frame decoded (NAN or not), 2 when the input is not a capture or \
            any frame is malformed, 3 when the system refused to read an existing file.

            Examples:
              aware-conform decode Fixtures/hostap-session-A/session.pcap
              aware-conform decode capture.pcapng --json | jq 'select(.frameKind == "SDF Publish")'
              aware-conform decode d0000000516f9a010000020000000100506f9a01abcd1000...
            """
    )

    @Argument(help: "A pcap/pcapng file, or hex of one 802.11 frame (from Frame Control, no FCS).")
    var input: String

    @Flag(help: "Print one JSON object per frame per line instead of text.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let loaded: DecodeInput
        do {
            loaded = try DecodeInput.load(input)
        } catch {
            var standardError = StandardError()
            print("aware-conform decode: \(error)", to: &standardError)
            // The system refusing an existing file is the environment's doing, as in analyze.
            if case .unreadable = error { throw ExitCode(3) }
            throw ExitCode(2)
        }
        let run = DecodeRun(loaded)
        var output = OutputBuffer()
        let start = run.frames.first?.record?.timestamp ?? 0
        for frame in run.frames {
            if json {
                output.line(frame.json.serialized)
            } else {
                for line in frame.text(relativeTo: start) { output.line(line) }
                output.line("")
            }
        }
        if !json { output.line(run.summary) }
        output.flush()
        if run.malformedCount > 0 {
            if json {
                var standardError = StandardError()
                print("aware-conform decode: \(run.summary)", to: &standardError)
            }
            throw ExitCode(2)
        }
    }
}
