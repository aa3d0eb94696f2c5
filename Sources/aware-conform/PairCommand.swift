import AccessoryKit
import ArgumentParser
import AwareCommandLine
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// `--target`, `--profile`, `--service`, `--phone-state`, `--json`, `--timeout`, `--seed`:
/// what `pair` and `reconnect` share.
struct PairingOptions: ParsableArguments {
    @OptionGroup var targetOptions: TargetOptions

    @OptionGroup var phoneOptions: PhoneOptions

    @Option(help: ArgumentHelp("The service to pair through (default: the profile's first).", valueName: "name"))
    var service: String?

    @Option(
        help: ArgumentHelp(
            "Keep the phone's paired accessories here (NIKs and NPKs), as the accessory keeps its own in "
                + "--state-dir. Without it the phone forgets everything when the command ends.",
            valueName: "dir"
        )
    )
    var phoneState: String?

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp("Seconds to look for the accessory, and again for the pairing.", valueName: "s"))
    var timeout: Double = 30

    @Option(
        name: .customLong("seed"),
        help: ArgumentHelp(
            "Seed for the air and the phone (default: 1 on embedded and spawn; random on socket, where a "
                + "running accessory would take repeated PASN frames for replays).",
            valueName: "n"
        )
    )
    var seedOption: UInt64?

    /// The seed in use: the one given, else 1 where runs replay, else a random one.
    var seed: UInt64 {
        if let seedOption { return seedOption }
        return targetOptions.target.hasPrefix("socket") ? Self.randomSeed : 1
    }

    /// Drawn once per process, so every use in one run agrees.
    private static let randomSeed = UInt64.random(in: 1 ... .max)

    func validate() throws {
        guard timeout > 0 && timeout <= 3600 else {
            throw ValidationError("--timeout must be between 0 and 3600 seconds")
        }
        if let service {
            do {
                _ = try ServiceName(service)
            } catch {
                throw ValidationError("--service \"\(service)\": \(error)")
            }
        }
    }

    /// The target and the service name; usage errors exit 2.
    func resolve() throws -> (any AccessoryTarget, String) {
        let (target, service, _) = try resolveWithProfile()
        return (target, service)
    }

    /// The target, the service name and the profile when one was given; usage errors exit 2.
    func resolveWithProfile() throws -> (any AccessoryTarget, String, AccessoryProfile?) {
        let needsProfile = targetOptions.target == "embedded" || targetOptions.target == "spawn"
        let loaded = try targetOptions.loadProfile(required: needsProfile)
        guard let serviceName = service ?? loaded?.0.services.first?.name else {
            throw ValidationError("--service NAME is required without --profile")
        }
        if let (profile, document, path) = loaded {
            let target = try targetOptions.makeTarget(profile: profile, document: document, path: path)
            return (target, serviceName, profile)
        }
        return (try targetOptions.makeAirTarget(profile: ProfileFacts(path: "", services: [])), serviceName, nil)
    }
}

struct PairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair with an accessory the way an iPhone does: PIN bootstrapping, PASN with SAE, NIK exchange.",
        discussion: """
            Finds the accessory by subscribing to --service, asks to bootstrap with PIN keypad entry, \
            waits while the accessory shows its PIN, enters it, and runs PASN pairing (SAE with the PIN \
            as password). When both sides cache keys the two exchange NIKs and the phone stores the \
            pairing in --phone-state, so that `aware-conform reconnect` later needs no PIN.

            The PIN: --pin gives it (a label); --pin-command runs a command that prints it, once the \
            accessory shows it (docs/guides/foreign-accessories.md); otherwise (--pin-from-display, the default) the runner reads it off \
            the accessory's display, standing in for the person: the embedded target's display, the \
            spawned accessory-emu's, or the side channel of the shared socket air, where accessory-emu \
            publishes what its display shows.

            Exit status: 0 paired, 1 refused or failed (the reason is printed: sae-confirm-mismatch for a \
            wrong PIN, locked-out, paired-device-limit, bootstrap-rejected, timeout, not-found, ...), \
            2 usage error, 3 environment error (also a --pin-command that fails or prints no PIN: no \
            PIN was typed, so no attempt was spent).

            EXAMPLES
              accessory-emu --profile Profiles/drone.json --state-dir /tmp/drone &
              aware-conform pair --target socket --service _drone-service._udp --phone-state /tmp/phone
              aware-conform pair --profile Profiles/drone.json --pin 123456 --json
            """
    )

    @OptionGroup var pairing: PairingOptions

    @Option(
        help: ArgumentHelp(
            "The PIN to enter, as a person types it: 4 to 8 digits, as many as the profile's PIN when --profile is given.",
            valueName: "digits"
        )
    )
    var pin: String?

    @OptionGroup var pinReading: PINCommandOptions

    @Flag(help: "Read the PIN off the accessory's display (the default without --pin or --pin-command).")
    var pinFromDisplay = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        let sources = [pin != nil, pinReading.pinCommand != nil, pinFromDisplay].filter { $0 }.count
        if sources > 1 { throw ValidationError("give one of --pin, --pin-command and --pin-from-display") }
        // What the accessory can show; anything else would only spend one of its attempts.
        if let pin, let problem = PINInput.problem(with: pin, length: nil) {
            throw ValidationError("--pin \"\(pin.prefix(20))\" \(problem)")
        }
    }

    func run() throws {
        logging.bootstrap()
        let pinLength = try pairing.targetOptions.loadProfile(required: false)?.0.pairing?.pin.length
        if let pin, let length = pinLength, let problem = PINInput.problem(with: pin, length: length) {
            throw ValidationError("--pin \"\(pin)\" \(problem)")
        }
        let (target, service) = try pairing.resolve()
        let phoneSession = try PhoneSession.openOrExit(
            command: "pair",
            target: target,
            seed: pairing.seed,
            phoneState: pairing.phoneState,
            phone: pairing.phoneOptions.profile
        )
        guard let found = try phoneSession.findOrFinish(service: service, options: pairing) else { return }
        guard let command = pinReading.command else {
            let outcome = phoneSession.pair(with: found, pin: pin, timeout: pairing.timeout)
            try phoneSession.finish(outcome, service: service, json: pairing.json)
            return
        }
        let outcome: PairingOutcome
        do throws(OperatorCommandError) {
            outcome = try phoneSession.pair(
                with: found,
                pinCommand: command,
                pinLength: pinLength,
                timeout: pairing.timeout
            )
        } catch {
            phoneSession.session.close()
            var standardError = StandardError()
            print("aware-conform pair: \(error)", to: &standardError)
            throw ExitCode(3)
        }
        try phoneSession.finish(outcome, service: service, json: pairing.json)
    }
}

struct ReconnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconnect",
        abstract: "Reconnect to a paired accessory without a PIN: NIRA resolution and PASN pairing verification.",
        discussion: """
            Finds the accessory by subscribing to --service, resolves its NIRA against the NIKs in \
            --phone-state (the accessory may have changed its NMI), and runs PASN pairing verification \
            with the cached NPK. No PIN is shown or entered.

            Exit status: 0 reconnected, 1 refused or failed (no-cached-keys when the phone has no \
            pairing that resolves the accessory, or the accessory no longer knows the phone, e.g. after a \
            factory reset; mic-mismatch; timeout; not-found), 2 usage error, 3 environment error.

            The embedded and spawn targets start a fresh accessory for each command, which knows no \
            phone: reconnect to an accessory that keeps running (socket target), or use the WA/RECON \
            tests, which pair and reconnect within one session.

            EXAMPLES
              aware-conform reconnect --target socket --service _drone-service._udp --phone-state /tmp/phone --json
            """
    )

    @OptionGroup var pairing: PairingOptions
    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let (target, service) = try pairing.resolve()
        let phoneSession = try PhoneSession.openOrExit(
            command: "reconnect",
            target: target,
            seed: pairing.seed,
            phoneState: pairing.phoneState,
            phone: pairing.phoneOptions.profile
        )
        guard let found = try phoneSession.findOrFinish(service: service, options: pairing) else { return }
        let outcome = phoneSession.reconnect(with: found, timeout: pairing.timeout)
        try phoneSession.finish(outcome, service: service, json: pairing.json)
    }
}
