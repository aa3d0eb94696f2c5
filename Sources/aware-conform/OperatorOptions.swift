import AccessoryKit
import ArgumentParser
import AwareRadio
import ConformanceKit

/// `--pin`, `--pin-command`, `--reboot-command`, `--reset-command` and their timeouts: how the
/// runner reaches what is not on the air for an accessory it did not build
/// (docs/guides/foreign-accessories.md).
struct OperatorOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The PIN to type for every pairing, for an accessory that shows the same one each time (a label): "
                + "4 to 8 digits. Works on every target.",
            valueName: "digits"
        )
    )
    var pin: String?

    @Option(
        name: .customLong("pin-command"),
        help: ArgumentHelp(
            "Run CMD (with /bin/sh) each time a PIN is needed, once the accessory accepted PIN bootstrapping; the "
                + "first line it prints is the PIN. Its environment names the accessory (AWARE_ACCESSORY_NMI), the "
                + "phone (AWARE_PHONE_NMI), the service (AWARE_SERVICE) and the test (AWARE_TEST_ID). A failure or an "
                + "unusable first line ends that test as an error, before any PIN is tried.",
            valueName: "cmd"
        )
    )
    var pinCommand: String?

    @Option(name: .customLong("pin-timeout"), help: ArgumentHelp("Seconds --pin-command may take.", valueName: "s"))
    var pinTimeout: Double = OperatorAccess.defaultPINTimeout

    @Option(
        name: .customLong("reboot-command"),
        help: ArgumentHelp(
            "With --target socket[:PATH] or nl80211:IFACE: power-cycle the accessory by running CMD (a power switch, "
                + "a serial command); the runner waits for it to exit 0, then for the accessory to publish again. "
                + "AWARE_NEW_NMI in its environment asks for a new NMI (for the NMI change test).",
            valueName: "cmd"
        )
    )
    var rebootCommand: String?

    @Option(
        name: .customLong("reset-command"),
        help: ArgumentHelp(
            "With --target socket[:PATH] or nl80211:IFACE: factory-reset the accessory (it forgets every pairing) by "
                + "running CMD, then wait for it to publish again.",
            valueName: "cmd"
        )
    )
    var resetCommand: String?

    @Option(
        name: .customLong("command-timeout"),
        help: ArgumentHelp(
            "Seconds --reboot-command and --reset-command may take, and then the accessory to publish again.",
            valueName: "s"
        )
    )
    var commandTimeout: Double = OperatorAccess.defaultCommandTimeout

    @Flag(
        name: .customLong("no-prompt"),
        help: ArgumentHelp(
            "Never ask the person at the terminal. Otherwise, on a terminal and with a target the runner did not "
                + "start, it asks for the PIN where nothing else gives it and to power-cycle or reset the accessory "
                + "where no command does."
        )
    )
    var noPrompt = false

    func validate() throws {
        if pin != nil && pinCommand != nil { throw ValidationError("give --pin or --pin-command, not both") }
        if let pin, let problem = PINInput.problem(with: pin, length: nil) {
            throw ValidationError("--pin \"\(pin.prefix(20))\" \(problem)")
        }
        for (option, value) in [("--pin-command", pinCommand), ("--reboot-command", rebootCommand)]
        where value?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("\(option) is empty")
        }
        if resetCommand?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("--reset-command is empty")
        }
        for (option, value) in [("--pin-timeout", pinTimeout), ("--command-timeout", commandTimeout)]
        where !(value > 0 && value <= 3600) {
            throw ValidationError("\(option) must be more than 0 and at most 3600 seconds")
        }
    }

    /// What the options give for `target` (as `--target` spells it); usage errors for options
    /// that do not apply there, or a `--pin` the profile's PIN cannot be.
    func access(target: String, control: String?, profile: AccessoryProfile?) throws -> OperatorAccess {
        let air = AirSpecifier(argument: target)
        let foreign = air?.socketPath != nil || air?.interfaceName != nil
        if !foreign, rebootCommand != nil || resetCommand != nil {
            throw ValidationError(
                "--reboot-command and --reset-command apply to --target socket[:PATH] and nl80211:IFACE; the runner "
                    + "restarts the accessories it starts itself"
            )
        }
        if control != nil, rebootCommand != nil || resetCommand != nil {
            throw ValidationError(
                "--control already reboots and resets the accessory: give it or --reboot-command/--reset-command"
            )
        }
        if let pin, let length = profile?.pairing?.pin.fixed?.count ?? profile?.pairing?.pin.length,
            let problem = PINInput.problem(with: pin, length: length)
        {
            throw ValidationError("--pin \"\(pin)\" \(problem)")
        }
        let input: PINInput
        if let pin {
            input = .given(pin)
        } else if let pinCommand {
            input = .command(OperatorCommand(pinCommand, timeoutSeconds: pinTimeout, option: "--pin-command"))
        } else {
            input = .display
        }
        return OperatorAccess(
            pin: input,
            reboot: rebootCommand.map {
                OperatorCommand($0, timeoutSeconds: commandTimeout, option: "--reboot-command")
            },
            reset: resetCommand.map { OperatorCommand($0, timeoutSeconds: commandTimeout, option: "--reset-command") },
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
        return arguments
    }
}
