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

            A capture is read and printed frame by frame, in the memory of one block whatever its \
            size. When the file itself is malformed or cut short (a sniffer killed mid-write), the \
            frames before the error are printed first, then the error, with its file offset, on \
            standard error.

            Exit status: 0 when every frame decoded (NAN or not), 2 when the input is not a capture, \
            the capture is malformed or cut short, or any frame is malformed, 3 when the system \
            refused to read an existing file.

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
        var standardError = StandardError()
        let loaded: DecodeInput
        do {
            loaded = try DecodeInput.load(input)
        } catch {
            print("aware-conform decode: \(error)", to: &standardError)
            // The system refusing an existing file is the environment's doing, as in analyze.
            if case .unreadable = error { throw ExitCode(3) }
            throw ExitCode(2)
        }
        // Each frame is printed as it is decoded: a capture of any size is decoded in the
        // memory of one block, and a capture cut short shows every frame before the cut.
        var run = DecodeRun(loaded)
        var output = OutputBuffer()
        var stoppedBy: DecodeInputError?
        do {
            while let frame = try run.next() {
                if json {
                    output.line(frame.json.serialized)
                } else {
                    for line in frame.text(relativeTo: run.startTimestamp ?? 0) { output.line(line) }
                    output.line("")
                }
            }
        } catch {
            stoppedBy = error
        }
        if !json { output.line(run.summary) }
        output.flush()
        if let stoppedBy {
            print("aware-conform decode: \(stoppedBy) (after \(run.summary))", to: &standardError)
            if case .unreadable = stoppedBy { throw ExitCode(3) }
            throw ExitCode(2)
        }
        if run.malformedCount > 0 {
            if json { print("aware-conform decode: \(run.summary)", to: &standardError) }
            throw ExitCode(2)
        }
    }
}
