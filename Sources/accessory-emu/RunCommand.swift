import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareRadio
import AwareWire
import Foundation
import Logging

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the emulated accessory described by a profile (the default command).",
        discussion: """
            The accessory joins an air, publishes every service of its profile and reports what \
            happens until it is stopped with Ctrl-C or SIGTERM.

            Airs: socket[:PATH], the air shared between processes (the default; its path is in the \
            banner; docs/reference/socket-air.md); sim, an in-process air with virtual time (with \
            --duration it runs that many simulated seconds as fast as it can and exits); \
            nl80211:IFACE, a real radio (docs/guides/nl80211.md; exit status 3 says why a radio \
            cannot be used).

            Output: a banner, then one line per event; with --json, one JSON object per line, \
            starting with `ready` (docs/reference/events.md). --control PATH takes operator commands \
            (status, reboot, factory-reset, faults, position, TX power, TXT updates) as JSON lines \
            (docs/reference/control.md). --fault NAME breaks one rule on purpose, so that a \
            conformance test can be seen to fail: `accessory-emu faults` lists them.

            Exit status: 0 stopped, 2 usage or profile error, 3 environment error.

            Examples:
              accessory-emu --profile Profiles/drone.json
              accessory-emu --profile Profiles/drone.json --state-dir /tmp/drone --control /tmp/drone.ctl
              accessory-emu --profile Profiles/camera.json --air sim --duration 10 --capture camera.pcapng
              accessory-emu --profile Profiles/drone.json --air nl80211:wlan0
            """
    )

    @Option(help: ArgumentHelp("The accessory's profile (JSON).", valueName: "file"))
    var profile: String

    @Option(
        help: ArgumentHelp(
            "The air to join: socket[:PATH] (shared between processes; default), socket[:PATH]?lockstep (the "
                + "processes share one virtual clock: deterministic, docs/reference/socket-air.md), sim, or nl80211:IFACE "
                + "(a real radio).",
            valueName: "air"
        )
    )
    var air: String?

    @Option(
        help: ArgumentHelp(
            "Use this NMI instead of the profile's or the stored one, and keep it in --state-dir (an accessory "
                + "that changes its NMI; paired phones still recognise it by its NIRA).",
            valueName: "mac"
        )
    )
    var nmi: String?

    @Option(help: "Seed for the accessory's randomness (default: random on the socket air, 1 on sim).")
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "Keep the accessory's state here across restarts (its NMI, boot count, own NIK and paired phones' keys). "
                + "Created 0700 if missing; one accessory per directory.",
            valueName: "dir"
        )
    )
    var stateDir: String?

    @Flag(help: "Print one JSON object per event per line instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Write every frame on the air to a pcap or pcapng file (by extension), each as it arrives.",
            valueName: "file"
        )
    )
    var capture: String?

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp("Break one behaviour on purpose (repeatable).", valueName: "name")
    )
    var faults: [String] = []

    @Flag(help: "Use unsynchronized service discovery (USD) instead of joining or forming a cluster.")
    var unsynchronized = false

    @Flag(help: "Read control commands (JSON lines) from standard input; end of input stops the emulator.")
    var controlStdin = false

    @Flag(
        name: .customLong("no-display-side-channel"),
        help: ArgumentHelp(
            "Keep the PIN display off the socket air's side channel, as a real device's screen is."
        )
    )
    var noDisplaySideChannel = false

    @Option(
        help: ArgumentHelp(
            "Listen for control commands (JSON lines: status, reboot, factory-reset, set-faults, enter-pin, "
                + "shutdown, ...; docs/reference/control.md) on this Unix socket. On the socket air and nl80211.",
            valueName: "path"
        )
    )
    var control: String?

    @Option(
        help: ArgumentHelp(
            "On the socket air: the RSSI (dBm) to report for frames heard (default -50).",
            valueName: "dBm"
        )
    )
    var socketRssi: Int = -50

    @Option(
        help: ArgumentHelp(
            "With --air sim: simulated seconds to run, as fast as possible, then exit.",
            valueName: "seconds"
        )
    )
    var duration: Double?

    @Option(
        help: ArgumentHelp(
            "The listener's performance mode, bulk or realtime (default: the profile's performance.default). "
                + "A phone that asks for the other mode is refused (reason 9).",
            valueName: "mode"
        )
    )
    var mode: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if let nmi, MACAddress(string: nmi)?.isStationAddress != true {
            throw ValidationError(
                "--nmi must be an individual MAC address other than 00:00:00:00:00:00, like 02:a0:00:00:00:01, "
                    + "not \"\(nmi)\""
            )
        }
        if let air, AirSpecifier(argument: air) == nil {
            throw ValidationError(
                "--air must be sim, socket, socket:PATH, socket:PATH?lockstep or nl80211:IFACE, not \"\(air)\""
            )
        }
        for fault in faults where AccessoryFault(rawValue: fault) == nil {
            throw ValidationError(
                "unknown fault \"\(fault)\"; known: \(AccessoryFault.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if controlStdin && airSpecifier == .simulated {
            throw ValidationError("--control-stdin applies to the socket air and nl80211")
        }
        if control != nil && airSpecifier == .simulated {
            throw ValidationError(
                "--control applies to the socket air and nl80211 (the simulated air runs in virtual time)"
            )
        }
        if let mode, PerformanceMode(rawValue: mode) == nil {
            throw ValidationError("--mode must be bulk or realtime, not \"\(mode)\"")
        }
        if duration != nil && airSpecifier != .simulated {
            throw ValidationError("--duration only applies to --air sim")
        }
        if let duration, !(duration > 0 && duration <= 86_400) {
            throw ValidationError("--duration must be between 0 and 86400 seconds")
        }
        try OutputPath.check([("--capture", capture)])
    }

    var airSpecifier: AirSpecifier { air.flatMap(AirSpecifier.init(argument:)) ?? .socket(path: nil) }

    func run() throws {
        logging.bootstrap()
        let loaded: AccessoryProfile
        do {
            loaded = try ProfileLoader.load(path: profile)
        } catch {
            var standardError = StandardError()
            for line in error.lines(file: profile) { print(line, to: &standardError) }
            throw ExitCode(2)
        }
        let performanceMode = mode.flatMap(PerformanceMode.init(rawValue:))
        if let performanceMode, !loaded.performance.supportedModes.contains(performanceMode) {
            var standardError = StandardError()
            let offered = loaded.performance.supportedModes.map(\.rawValue).joined(separator: ", ")
            print(
                "accessory-emu: --mode \(performanceMode.rawValue): the profile \(profile) does not offer it "
                    + "(its performance section offers: \(offered.isEmpty ? "none" : offered))",
                to: &standardError
            )
            throw ExitCode(2)
        }
        let specifier = airSpecifier
        var options = AccessoryOptions(
            seed: seed ?? (specifier == .simulated ? 1 : UInt64.random(in: 1...UInt64.max)),
            faults: Set(faults.compactMap(AccessoryFault.init(rawValue:))),
            unsynchronized: unsynchronized
        )
        let overrideAddress = nmi.flatMap(MACAddress.init(string:))
        if let overrideAddress { options.address = overrideAddress }
        // The state directory stays locked for as long as this process runs.
        var state: AccessoryStateDirectory?
        if let stateDir {
            let booted = Result {
                () throws(AccessoryStateError) -> (AccessoryStateDirectory, AccessoryIdentityRecord) in
                let directory = try AccessoryStateDirectory(path: stateDir)
                let record = try directory.boot(
                    proposedAddress: overrideAddress ?? Accessory.defaultAddress(profile: loaded, seed: options.seed),
                    profileFixesAddress: loaded.radio.nmi != nil || overrideAddress != nil
                )
                return (directory, record)
            }
            switch booted {
            case .success(let (directory, record)):
                state = directory
                options.address = record.address
                options.boot = record.boots
            case .failure(let error):
                var standardError = StandardError()
                print("accessory-emu: state directory: \(error)", to: &standardError)
                throw ExitCode(3)
            }
        }
        defer { withExtendedLifetime(state) {} }
        let output = EventPrinter(json: json)
        let host = AccessoryHost(
            profile: loaded,
            options: options,
            capturePath: capture,
            output: output,
            controlFromStandardInput: controlStdin,
            socketRSSIDBm: socketRssi,
            state: state,
            controlPath: control,
            addressIsFixed: overrideAddress != nil,
            performanceMode: performanceMode
        )
        host.publishesDisplayOnAir = !noDisplaySideChannel
        let outcome: Result<Void, AccessoryHostError>
        switch specifier {
        case .simulated: outcome = Result { () throws(AccessoryHostError) in try host.runSimulated(duration: duration) }
        case .socket:
            outcome = Result { () throws(AccessoryHostError) in
                try host.runOnSocketAir(
                    path: specifier.socketPath ?? SocketAir.defaultPath,
                    lockstep: air.map { AirSpecifier.isLockstep(argument: $0) } ?? false
                )
            }
        case .nl80211(let interface):
            outcome = Result { () throws(AccessoryHostError) in try host.runOnRadio(interface: interface) }
        }
        if case .failure(let error) = outcome {
            var standardError = StandardError()
            print("accessory-emu: \(error)", to: &standardError)
            throw ExitCode(3)
        }
    }
}
