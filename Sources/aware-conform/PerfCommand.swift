import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareDevice
import AwareProtocol
import AwareWire
import ConformanceKit
import Foundation

struct PerfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perf",
        abstract: "Measure a live data path: pair if needed, open it in a mode and class, measure, report.",
        discussion: """
            Finds the accessory (--service), pairs or reconnects with the keys in --phone-state, \
            opens a paired data path in --mode and --class, then measures (--rate, --size, \
            --duration): with --traffic stream it asks the accessory for a datagram stream, measures \
            what arrives and asks for the accessory's own report (the bench's protocol, \
            app.benchProtocol); with --traffic echo it sends ICMPv6 echo requests, which any \
            accessory's IP stack answers, and reports the round trips. The phone's report has Apple's WAPerformanceReport fields plus latency \
            percentiles, jitter, delivery, throughput, duty cycle and energy. Defaults come from the \
            profile (docs/guides/measuring-performance.md). A request in a mode the accessory does \
            not listen in is refused with NAN reason 9 ("mode-mismatch").

            Exit status: 0 measured, 1 refused or failed (the JSON says why), 2 usage error, \
            3 environment error.

            Examples:
              aware-conform perf --profile Profiles/drone.json --mode realtime --duration 2 --json
              aware-conform perf --target socket --service _drone-service._udp --phone-state /tmp/phone
            """
    )

    @OptionGroup var pairing: PairingOptions

    @Option(help: ArgumentHelp("The performance mode to ask for: bulk or realtime.", valueName: "mode"))
    var mode: String = PerformanceMode.bulk.rawValue

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp(
            "The service class: background, best-effort, interactive-video or interactive-voice "
                + "(default: the profile's class for the mode, else best-effort).",
            valueName: "class"
        )
    )
    var serviceClass: String?

    @Option(
        help: ArgumentHelp(
            "embedded and spawn: the accessory's own mode (default: --mode when the profile offers it, else the "
                + "profile's default). Differing from --mode shows the refusal.",
            valueName: "mode"
        )
    )
    var accessoryMode: String?

    @Option(help: ArgumentHelp("How long the accessory streams, in seconds.", valueName: "seconds"))
    var duration: Double = 5

    @Option(
        help: ArgumentHelp("Datagrams per second (default: the profile's telemetry rate, else 50).", valueName: "Hz")
    )
    var rate: Double?

    @Option(
        help: ArgumentHelp(
            "Payload octets per datagram, 1-1400 (default: the profile's telemetry payload, else 512).",
            valueName: "octets"
        )
    )
    var size: Int?

    @Option(
        help: ArgumentHelp(
            "stream or echo (default: stream when the profile declares app.benchProtocol, else echo).",
            valueName: "traffic"
        )
    )
    var traffic: String?

    @Option(
        help: ArgumentHelp(
            "A PIN on a label (4 to 8 digits), for a pairing perf has to make; default: read the display.",
            valueName: "digits"
        )
    )
    var pin: String?

    @OptionGroup var logging: LoggingOptions

    static let maximumSize = 1_400

    func validate() throws {
        guard PerformanceMode(rawValue: mode) != nil else {
            throw ValidationError("--mode must be bulk or realtime, not \"\(mode)\"")
        }
        if let accessoryMode {
            guard PerformanceMode(rawValue: accessoryMode) != nil else {
                throw ValidationError("--accessory-mode must be bulk or realtime, not \"\(accessoryMode)\"")
            }
            let target = pairing.targetOptions.target
            guard target == "embedded" || target == "spawn" else {
                throw ValidationError("--accessory-mode applies to the embedded and spawn targets only")
            }
        }
        if let serviceClass, Self.serviceClass(named: serviceClass) == nil {
            let names = ServiceClass.allCases.map(\.commandLineName).joined(separator: ", ")
            throw ValidationError("--class must be one of \(names), not \"\(serviceClass)\"")
        }
        guard duration > 0 && duration <= 3_600 else {
            throw ValidationError("--duration must be more than 0 and at most 3600 seconds")
        }
        if let rate, !(rate > 0 && rate <= 10_000) {
            throw ValidationError("--rate must be more than 0 and at most 10000 Hz")
        }
        if let pin, let problem = PINInput.problem(with: pin, length: nil) {
            throw ValidationError("--pin \"\(pin.prefix(20))\" \(problem)")
        }
        if let traffic, PerfTraffic(rawValue: traffic) == nil {
            throw ValidationError("--traffic must be stream or echo, not \"\(traffic)\"")
        }
        if let size, !(1...Self.maximumSize).contains(size) {
            throw ValidationError("--size must be 1-\(Self.maximumSize) octets (one datagram in one 1500-octet packet)")
        }
    }

    static func serviceClass(named name: String) -> ServiceClass? {
        ServiceClass.allCases.first { $0.commandLineName == name }
    }

    func run() throws {
        logging.bootstrap()
        let (target, service, profile) = try pairing.resolveWithProfile()
        if let pin, let length = profile?.pairing?.pin.length, let problem = PINInput.problem(with: pin, length: length)
        {
            throw ValidationError("--pin \"\(pin)\" \(problem)")
        }
        var plan = try makePlan(service: service, profile: profile)
        plan.pin = pin
        let phoneSession = try PhoneSession.openOrExit(
            command: "perf",
            target: target,
            seed: pairing.seed,
            phoneState: pairing.phoneState,
            accessoryMode: plan.accessoryMode,
            phone: pairing.phoneOptions.profile
        )
        let result = PerfRunner(phoneSession: phoneSession, plan: plan, timeout: pairing.timeout).measure()
        phoneSession.session.close()
        let printer = PerfPrinter(plan: plan, target: target.name, result: result, phone: pairing.phoneOptions.phone)
        print(pairing.json ? printer.json.serialized : printer.text)
        if result.result != .measured { throw ExitCode(1) }
    }

    /// What to ask for, with the profile's defaults filled in; usage errors exit 2.
    func makePlan(service: String, profile: AccessoryProfile?) throws -> PerfPlan {
        let requested = PerformanceMode(rawValue: mode) ?? .bulk
        let offered = profile?.performance.supportedModes ?? []
        var accessory: PerformanceMode?
        if let accessoryMode, let chosen = PerformanceMode(rawValue: accessoryMode) {
            guard offered.contains(chosen) else {
                throw ValidationError("--accessory-mode \(accessoryMode): the profile does not offer it")
            }
            accessory = chosen
        } else if pairing.targetOptions.target == "embedded" || pairing.targetOptions.target == "spawn" {
            accessory = offered.contains(requested) ? requested : nil
        }
        let telemetry = profile?.app?.telemetry
        let port = profile?.services.first { $0.name == service }?.datapath?.port
        let chosenClass =
            serviceClass.flatMap(Self.serviceClass(named:))
            ?? profile?.performance.serviceClass(for: requested) ?? .bestEffort
        return PerfPlan(
            service: service,
            mode: requested,
            serviceClass: chosenClass,
            accessoryMode: accessory,
            rateHz: rate ?? telemetry?.rateHz ?? 50,
            payloadOctets: size ?? telemetry.map { min(max($0.payloadBytes, 1), Self.maximumSize) } ?? 512,
            durationSeconds: duration,
            servicePort: port.map { UInt16(clamping: $0) } ?? AppPorts.defaultService,
            latencyBudgetMs: requested == .realtime ? profile?.performance.realtime?.maxLatencyMs : nil,
            traffic: traffic.flatMap(PerfTraffic.init(rawValue:))
                ?? (profile?.app?.benchProtocol == true ? .stream : .echo)
        )
    }
}
