import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

struct DiscoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Find accessories the way a phone does, and list them like `dns-sd -B`.",
        discussion: """
            Subscribes to a service as an iPhone app would and lists every accessory found: service, \
            publish instance, NMI, signal strength and TXT record. With --vendor / --model the phone \
            applies an AccessorySetupKit-style descriptor: both TXT keys must be present and each given \
            name must equal the accessory's whole string (--compare literal, the default, or \
            case-insensitive); accessories it would not offer are listed as such, with the reason.

            --match-filter SPEC is the phone's filter: the TX filter of an active subscribe, and the RX \
            filter unsolicited publishes are matched against. SPEC is colon-separated items, `*` the \
            wildcard, `hex:` before binary items: drone:*:v2, hex:01:*:hex:03.

            On the embedded target the accessory of --profile runs in-process and --timeout is \
            simulated time; elsewhere it is wall-clock time.

            Exit status: 0 at least one accessory found (and offered, with a descriptor), 1 none, 2 \
            usage or profile error, 3 environment error.

            EXAMPLES
              aware-conform discover --profile Profiles/drone.json
              aware-conform discover --target socket --service _drone-service._udp --vendor "Example Inc"
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @Option(help: ArgumentHelp("The service to subscribe to (default: the profile's first).", valueName: "name"))
    var service: String?

    @Option(
        help: ArgumentHelp("passive (listen for unsolicited publishes) or active (send subscribes).", valueName: "mode")
    )
    var subscribe: String = "active"

    @Option(help: ArgumentHelp("The phone's matching filter.", valueName: "spec"))
    var matchFilter: String?

    @Option(help: ArgumentHelp("Offer only accessories whose TXT vendorName is this.", valueName: "name"))
    var vendor: String?

    @Option(help: ArgumentHelp("Offer only accessories whose TXT modelName is this.", valueName: "name"))
    var model: String?

    @Option(help: ArgumentHelp("How --vendor and --model compare: literal or case-insensitive.", valueName: "how"))
    var compare: String = "literal"

    @Option(help: "How long to look, in seconds (default: the phone's window, docs/phones.md).")
    var timeout: Double?

    @OptionGroup var phoneOptions: PhoneOptions

    @Option(help: ArgumentHelp("Write every frame the phone's air carried to a pcap or pcapng.", valueName: "file"))
    var capture: String?

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Option(help: "Seed for the embedded air and the phone.")
    var seed: UInt64 = 1

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard subscribe == "passive" || subscribe == "active" else {
            throw ValidationError("--subscribe must be passive or active, not \"\(subscribe)\"")
        }
        guard DiscoveryDescriptor.Comparison(rawValue: compare) != nil else {
            throw ValidationError("--compare must be literal or case-insensitive, not \"\(compare)\"")
        }
        if let matchFilter {
            do {
                _ = try MatchingFilter(spec: matchFilter)
            } catch {
                throw ValidationError("--match-filter \"\(matchFilter)\": \(error)")
            }
        }
        if let timeout, !(timeout > 0 && timeout <= 3600) {
            throw ValidationError("--timeout must be between 0 and 3600 seconds")
        }
        if let service {
            do {
                _ = try ServiceName(service)
            } catch {
                throw ValidationError("--service \"\(service)\": \(error)")
            }
        }
        try OutputPath.check([("--capture", capture)])
    }

    func run() throws {
        logging.bootstrap()
        let needsProfile = targetOptions.target == "embedded" || targetOptions.target == "spawn"
        let loaded = try targetOptions.loadProfile(required: needsProfile)
        guard let serviceName = service ?? loaded?.0.services.first?.name else {
            throw ValidationError("--service NAME is required without --profile")
        }
        let target: any AccessoryTarget
        if let (profile, document, path) = loaded {
            target = try targetOptions.makeTarget(profile: profile, document: document, path: path)
        } else {
            target = try targetOptions.makeAirTarget(profile: ProfileFacts(path: "", services: []))
        }
        // The capture is written as the frames arrive; a file that cannot be made is an
        // environment error, as a failed write at the end was.
        var tap: CaptureTap?
        if let capture {
            do throws(CaptureTapError) {
                tap = try CaptureTap(path: capture, format: CaptureFormat(path: capture) ?? .pcap)
            } catch {
                var standardError = StandardError()
                print("aware-conform discover: \(error)", to: &standardError)
                throw ExitCode(3)
            }
        }
        let outcome: Browse.Outcome
        do throws(PhoneSessionError) {
            outcome = try Browse.run(
                target: target,
                seed: seed,
                subscription: SubscribeConfiguration(
                    serviceName: serviceName,
                    mode: subscribe == "active" ? .active : .passive,
                    matchingFilter: matchFilter.flatMap { try? MatchingFilter(spec: $0) }
                ),
                seconds: timeout ?? phoneOptions.profile.discoveryWindow.seconds,
                capture: tap,
                phone: phoneOptions.profile
            )
        } catch {
            var standardError = StandardError()
            print("aware-conform discover: \(error)", to: &standardError)
            throw ExitCode(3)
        }
        let results = outcome.results
        do throws(CaptureTapError) {
            try tap?.close()
        } catch {
            var standardError = StandardError()
            print("aware-conform discover: \(error)", to: &standardError)
            throw ExitCode(3)
        }
        let descriptor =
            (vendor != nil || model != nil)
            ? DiscoveryDescriptor(
                serviceName: serviceName,
                vendorName: vendor,
                modelName: model,
                comparison: DiscoveryDescriptor.Comparison(rawValue: compare) ?? .literal
            )
            : nil
        let report = DiscoveryListing(
            serviceName: serviceName,
            target: target.name,
            results: results,
            descriptor: descriptor,
            phone: phoneOptions.profile
        )
        print(json ? report.json.serialized : report.text, terminator: json ? "\n" : "")
        if report.offeredCount == 0 { throw ExitCode(1) }
    }
}

/// The accessories found, one per publisher and instance, as `discover` prints them.
struct DiscoveryListing {
    struct Entry {
        var result: DiscoveryResult
        var verdict: Result<OfferedAccessory, DiscoveryDescriptor.NotOffered>?
    }

    let serviceName: String
    let target: String
    let entries: [Entry]

    let phone: PhoneProfile

    init(
        serviceName: String,
        target: String,
        results: [DiscoveryResult],
        descriptor: DiscoveryDescriptor?,
        phone: PhoneProfile = .reference
    ) {
        self.serviceName = serviceName
        self.target = target
        self.phone = phone
        var seen: Set<String> = []
        var entries: [Entry] = []
        for result in results where seen.insert("\(result.publisherAddress)/\(result.publishInstanceID)").inserted {
            entries.append(Entry(result: result, verdict: descriptor?.evaluate(result, reading: phone.longTXTValues)))
        }
        self.entries = entries
    }

    var offeredCount: Int {
        entries.count { entry in
            if case .failure = entry.verdict { return false }
            return true
        }
    }

    var text: String {
        var lines = [
            "Browsing for \(serviceName) on \(target)", "SERVICE                    INST  NMI                RSSI  TXT",
        ]
        for entry in entries {
            let result = entry.result
            // What the accessory sent, escaped: a TXT value is the sender's to choose, and a raw ESC
            // would drive the reader's terminal (TerminalText).
            let txt = result.txtRecord?.strings.map { TerminalText.escaped($0) }.joined(separator: " ") ?? "-"
            let name = result.serviceName.padding(toLength: 26, withPad: " ", startingAt: 0)
            var line =
                "\(name) \(String(result.publishInstanceID).leftPadded(4))  \(result.publisherAddress)  "
                + "\(String(result.rssiDBm).leftPadded(4))  \(txt)"
            switch entry.verdict {
            case .success(let offered)?:
                line += "   [offered as \"\(TerminalText.escaped(offered.pairingName ?? offered.modelName))\"]"
            case .failure(let reason)?: line += "   [not offered: \(TerminalText.escaped("\(reason)"))]"
            case nil: break
            }
            lines.append(line)
        }
        lines.append("\(entries.count) found, \(offeredCount) offered")
        return lines.joined(separator: "\n") + "\n"
    }

    var json: JSONValue {
        .object([
            ("service", .string(serviceName)),
            ("target", .string(target)),
            ("phone", .string(phone.name.rawValue)),
            (
                "found",
                .array(
                    entries.map { entry in
                        var members: [(String, JSONValue)] = [
                            ("nmi", .string(entry.result.publisherAddress.description)),
                            ("instanceID", .unsigned(UInt64(entry.result.publishInstanceID))),
                            ("rssi", .integer(Int64(entry.result.rssiDBm))),
                            ("solicited", .bool(entry.result.solicited)),
                            (
                                "txt",
                                .object(
                                    (entry.result.txtRecord?.strings ?? []).map { raw in
                                        let text = String(decoding: raw, as: UTF8.self)
                                        let parts = text.split(separator: "=", maxSplits: 1)
                                        return (
                                            String(parts.first ?? ""), .string(parts.count > 1 ? String(parts[1]) : "")
                                        )
                                    }
                                )
                            ),
                        ]
                        switch entry.verdict {
                        case .success(let offered)?:
                            members.append(("offered", .bool(true)))
                            members.append(("pairingName", offered.pairingName.map { .string($0) } ?? .null))
                        case .failure(let reason)?:
                            members.append(("offered", .bool(false)))
                            members.append(("reason", .string(reason.description)))
                        case nil: break
                        }
                        return .object(members)
                    }
                )
            ),
        ])
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
