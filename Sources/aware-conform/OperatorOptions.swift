import AccessoryKit
import ArgumentParser
import AwareRadio
import ConformanceKit

/// `--pin`, `--pin-command`, `--reboot-command`, `--reset-command`, `--enter-pin-command` and their
/// timeouts: how the runner reaches what is not on the air for an accessory it did not build
/// (docs/guides/foreign-accessories.md).
struct OperatorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A PIN printed on a label (4 to 8 digits), typed for every pairing.",
            valueName: "digits"
        )
    )
    var pin: String?

    @OptionGroup var pinReading: PINCommandOptions
    var pinCommand: String? { pinReading.pinCommand }

    @Option(
        name: .customLong("reboot-command"),
        help: ArgumentHelp(
            "Power-cycle the accessory (socket, nl80211) with CMD, then wait for it to publish again.",
            valueName: "cmd"
        )
    )
    var rebootCommand: String?

    @Option(
        name: .customLong("reset-command"),
        help: ArgumentHelp(
            "Factory-reset it the same way.",
            valueName: "cmd"
        )
    )
    var resetCommand: String?

    @Option(
        name: .customLong("enter-pin-command"),
        help: ArgumentHelp(
            "Type the phone's PIN ($AWARE_PIN) on the accessory with CMD, when it subscribes (the reverse role).",
            valueName: "cmd"
        )
    )
    var enterPINCommand: String?

    @Option(
        name: .customLong("command-timeout"),
        help: ArgumentHelp(
            "Seconds each of those, and the accessory's return, may take.",
            valueName: "s"
        )
    )
    var commandTimeout: Double = OperatorAccess.defaultCommandTimeout

    @Flag(
        name: .customLong("no-prompt"),
        help: ArgumentHelp(
            "Never ask the person at the terminal for a PIN, a power cycle or a reset."
        )
    )
    var noPrompt = false

    func validate() throws {
        if pin != nil && pinCommand != nil { throw ValidationError("give --pin or --pin-command, not both") }
        if let pin, let problem = PINInput.problem(with: pin, length: nil) {
            throw ValidationError("--pin \"\(pin.prefix(20))\" \(problem)")
        }
        for (option, value) in [
            ("--reboot-command", rebootCommand), ("--reset-command", resetCommand),
            ("--enter-pin-command", enterPINCommand),
        ]
        where value?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("\(option) is empty")
        }
        if !(commandTimeout > 0 && commandTimeout <= 3600) {
            throw ValidationError("--command-timeout must be more than 0 and at most 3600 seconds")
        }
    }

    /// What the options give for `target` (as `--target` spells it); usage errors for options
    /// that do not apply there, or a `--pin` the profile's PIN cannot be.
    func access(target: String, control: String?, profile: AccessoryProfile?) throws -> OperatorAccess {
        let air = AirSpecifier(argument: target)
        let foreign = air?.socketPath != nil || air?.interfaceName != nil
        if !foreign, rebootCommand != nil || resetCommand != nil || enterPINCommand != nil {
            throw ValidationError(
                "--reboot-command, --reset-command and --enter-pin-command apply to --target socket[:PATH] and "
                    + "nl80211:IFACE; the runner drives the accessories it starts itself"
            )
        }
        if control != nil, rebootCommand != nil || resetCommand != nil || enterPINCommand != nil {
            throw ValidationError(
                "--control already reboots, resets and types the PIN on the accessory: give it or "
                    + "--reboot-command/--reset-command/--enter-pin-command"
            )
        }
        if let pin, let length = profile?.pairing?.pin.length,
            let problem = PINInput.problem(with: pin, length: length)
        {
            throw ValidationError("--pin \"\(pin)\" \(problem)")
        }
        let input: PINInput
        if let pin {
            input = .given(pin)
        } else if let command = pinReading.command {
            input = .command(command)
        } else {
            input = .display
        }
        return OperatorAccess(
            pin: input,
            reboot: rebootCommand.map {
                OperatorCommand($0, timeoutSeconds: commandTimeout, option: "--reboot-command")
            },
            reset: resetCommand.map { OperatorCommand($0, timeoutSeconds: commandTimeout, option: "--reset-command") },
            enterPIN: enterPINCommand.map {
                OperatorCommand($0, timeoutSeconds: commandTimeout, option: "--enter-pin-command")
            },
            prompts: foreign && control == nil && !noPrompt && OperatorAccess.isInteractive,
            rediscoverySeconds: commandTimeout
        )
    }

    /// The options again, for the command that reruns a failed test.
    var rerunArguments: [String] {
        var arguments: [String] = []
        if let pin { arguments += ["--pin", pin] }
        if let pinCommand { arguments += ["--pin-command", pinCommand] }
        if let rebootCommand { arguments += ["--reboot-command", rebootCommand] }
        if let resetCommand { arguments += ["--reset-command", resetCommand] }
        if let enterPINCommand { arguments += ["--enter-pin-command", enterPINCommand] }
        return arguments
    }
}

/// `--pin-command` and `--pin-timeout`: a command that prints the PIN the accessory shows, for `run`
/// (through ``OperatorOptions``) and `pair` alike (docs/guides/foreign-accessories.md).
struct PINCommandOptions: ParsableArguments {
    @Option(
        name: .customLong("pin-command"),
        help: ArgumentHelp(
            "Run CMD for each PIN the accessory shows; the first line it prints is the PIN.",
            valueName: "cmd"
        )
    )
    var pinCommand: String?

    @Option(name: .customLong("pin-timeout"), help: ArgumentHelp("Seconds --pin-command may take.", valueName: "s"))
    var pinTimeout: Double = OperatorAccess.defaultPINTimeout

    func validate() throws {
        if pinCommand?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("--pin-command is empty")
        }
        if !(pinTimeout > 0 && pinTimeout <= 3600) {
            throw ValidationError("--pin-timeout must be more than 0 and at most 3600 seconds")
        }
    }

    /// The command to run, when one was given.
    var command: OperatorCommand? {
        pinCommand.map { OperatorCommand($0, timeoutSeconds: pinTimeout, option: "--pin-command") }
    }
}
