import AccessoryKit
import ArgumentParser
import AwareAnalysis
import AwareCommandLine
import AwareCore
import AwareWire
import ConformanceKit
import Foundation

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Check a sniffer capture of a real device against the Wi-Fi Aware rules, passively.",
        discussion: """
            Reads a pcap or pcapng capture (link type 105, or 127 with radiotap; FCS present or \
            not) and checks every frame, without talking to anything. Each finding carries the frame \
            number (1-based, as Wireshark numbers frames), a stable rule ID, a severity (error, \
            warning, info), what was found, and the source of the rule.

            Frames cut short by the snap length or received with a bad FCS are skipped and noted, \
            retransmissions (Retry bit, same sequence number) are judged once. With --profile (an \
            accessory profile) or --service the service IDs are checked against their names, and \
            the TXT values against the profile's vendorName / modelName / pairingName. With --device \
            only frames the device under test sent are reported (a sniffer also hears the phone).

            Rules:
            \(AnalysisCatalogue.rules.map { "  \($0.id.padding(toLength: 19, withPad: " ", startingAt: 0))\($0.title)" }.joined(separator: "\n"))

            --json prints one JSON object: capture, format, profile, summary (counts), findings \
            (frame, rule, severity, message, source) and rules (id, title, source, findings). See \
            docs/reference/analyze-json.md.

            The capture is read twice, record by record, as tshark -2 does: a first pass learns \
            what the whole capture shows (pairings, beacons, devices that cache keys), a second \
            judges each frame with it. Memory grows with the beacons, data frames and findings, \
            not with the file (a pipe, which cannot be read twice, is held in memory).

            Exit status: 0 no error findings, 1 error findings, 2 the capture or profile cannot be \
            read or is malformed (the message names the file and the octet offset; a capture cut \
            short still has the frames before the cut analyzed), 3 the system refused to read an \
            existing file.

            Examples:
              aware-conform analyze sniff.pcapng --profile Profiles/drone.json
              aware-conform analyze Fixtures/hostap-session-A/session.pcap --service _drone-service._udp
              aware-conform analyze sniff.pcap --json | jq '.findings[] | select(.severity == "error")'
            """
    )

    @Argument(help: "The capture: pcap or pcapng (told apart by its magic).")
    var capture: String

    @Option(
        help: ArgumentHelp("The device's accessory profile (service names, TXT values, pairing).", valueName: "file")
    )
    var profile: String?

    @Option(
        name: .customLong("service"),
        help: ArgumentHelp(
            "A service name the device publishes (repeatable; adds to the profile's).",
            valueName: "name"
        )
    )
    var services: [String] = []

    @Option(
        name: .customLong("device"),
        help: ArgumentHelp(
            "Report only frames this NMI sent (repeatable): the device under test, not the phone or the neighbours.",
            valueName: "mac"
        )
    )
    var devices: [String] = []

    @Flag(help: "Print the report as one JSON object instead of text.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        var standardError = StandardError()
        var expectations = AnalysisProfile()
        if let profile {
            do {
                let loaded = try ProfileLoader.load(path: profile)
                expectations = AnalysisProfile(
                    serviceNames: loaded.services.map(\.name),
                    vendorName: loaded.device.vendorName,
                    modelName: loaded.device.modelName,
                    pairingName: loaded.device.pairingName,
                    offersPairing: loaded.offersPairing
                )
            } catch {
                print("aware-conform analyze: profile \(profile): \(error)", to: &standardError)
                throw ExitCode(2)
            }
        }
        expectations.serviceNames += services
        for device in devices {
            guard let address = MACAddress(string: device) else {
                print(
                    "aware-conform analyze: --device \"\(device)\" is not a MAC address (aa:bb:cc:dd:ee:ff)",
                    to: &standardError
                )
                throw ExitCode(2)
            }
            expectations.devices.insert(address)
        }

        // Two passes over the file, record by record: the capture is never held in memory.
        let outcome: CaptureFileAnalysis.Outcome
        do {
            outcome = try CaptureFileAnalysis.analyze(path: capture, with: CaptureAnalyzer(profile: expectations))
        } catch {
            print("aware-conform analyze: \(error)", to: &standardError)
            if case .unreadable = error { throw ExitCode(3) }
            throw ExitCode(2)
        }
        let report = outcome.report
        var output = OutputBuffer()
        if json {
            let format = outcome.format == .pcap ? "pcap" : "pcapng"
            let error = outcome.stoppedBy.map { "\($0)" }
            output.line(report.json(capture: capture, format: format, profile: profile, captureError: error).serialized)
        } else {
            for line in report.text(capture: capture) { output.line(line) }
        }
        output.flush()
        // A capture cut short is still malformed: the frames before the cut are reported above,
        // and the status says the file is not whole (3 when the system stopped the reading).
        if let stoppedBy = outcome.stoppedBy {
            print(
                "aware-conform analyze: \(stoppedBy) (the \(report.frameCount) frames before it were analyzed)",
                to: &standardError
            )
            if case .unreadable = stoppedBy { throw ExitCode(3) }
            throw ExitCode(2)
        }
        if report.hasErrors { throw ExitCode(1) }
    }
}
