import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the runner reaches beyond the air: the PIN a person reads off the accessory, and the
/// power switch and reset button of a device it did not start (issue 18,
/// docs/guides/foreign-accessories.md). `accessory-emu` needs none of it (the runner reads its
/// display and drives it through its control socket); a real device needs some of it.
public struct OperatorAccess: Hashable, Sendable {
    /// Where the phone's PIN comes from.
    public var pin: PINInput
    /// Power-cycles the accessory (`--reboot-command`); it keeps its pairings.
    public var reboot: OperatorCommand?
    /// Factory-resets the accessory (`--reset-command`); it forgets every pairing.
    public var reset: OperatorCommand?
    /// Types the PIN a publishing phone shows on the accessory (`--enter-pin-command`, the reverse
    /// role); the PIN is in its environment as `AWARE_PIN`.
    public var enterPIN: OperatorCommand?
    /// A person at the terminal answers prompts: for the PIN where nothing else gives it, and to
    /// power-cycle or reset the device where no command does.
    public var prompts: Bool
    /// How long the runner waits for the accessory to publish again after a reboot or reset.
    public var rediscoverySeconds: Double

    public init(
        pin: PINInput = .display,
        reboot: OperatorCommand? = nil,
        reset: OperatorCommand? = nil,
        enterPIN: OperatorCommand? = nil,
        prompts: Bool = false,
        rediscoverySeconds: Double = OperatorAccess.defaultCommandTimeout
    ) {
        self.pin = pin
        self.reboot = reboot
        self.reset = reset
        self.enterPIN = enterPIN
        self.prompts = prompts
        self.rediscoverySeconds = rediscoverySeconds
    }

    /// The documented default of `--pin-timeout`: a person looking for a label has time.
    public static let defaultPINTimeout = 60.0
    /// The documented default of `--command-timeout`: a device's cold boot.
    public static let defaultCommandTimeout = 120.0

    /// Whether the runner can power-cycle the accessory of a target it did not start: through
    /// its control socket (`controlled`), a command or a person; if not, the reason names the
    /// options that would.
    func restartAbility(controlled: Bool, outside: String, control: Bool) -> TargetAbility {
        ability(
            given: reboot != nil,
            option: "--reboot-command",
            controlled: controlled,
            outside: outside,
            control: control
        )
    }

    /// The same for the factory reset.
    func resetAbility(controlled: Bool, outside: String, control: Bool) -> TargetAbility {
        ability(
            given: reset != nil,
            option: "--reset-command",
            controlled: controlled,
            outside: outside,
            control: control
        )
    }

    private func ability(
        given: Bool,
        option: String,
        controlled: Bool,
        outside: String,
        control: Bool
    )
        -> TargetAbility
    {
        if controlled || given || prompts { return .available }
        return .unavailable(
            reason: "\(outside): give \(option) CMD" + (control ? " (or --control PATH for accessory-emu)" : "")
                + ", or run at a terminal"
        )
    }

    /// Why a target on an air shows no event log.
    static func noEventLog(_ target: String) -> String {
        "\(target) carries the accessory's frames, not its own log: only accessory-emu started by the runner "
            + "(--target embedded or spawn) shows it"
    }

    /// Whether standard input and standard error are a terminal, so a person can answer.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 }

    /// The environment of every operator command: who asks, about what (documented in
    /// docs/guides/foreign-accessories.md, "The commands' environment").
    static func environment(
        accessory: String?,
        phone: String?,
        service: String?,
        test: TestID?,
        requestedAddress: String? = nil
    ) -> [String: String] {
        var environment: [String: String] = [:]
        environment["AWARE_ACCESSORY_NMI"] = accessory ?? ""
        environment["AWARE_PHONE_NMI"] = phone ?? ""
        environment["AWARE_SERVICE"] = service ?? ""
        environment["AWARE_TEST_ID"] = test?.description ?? ""
        if let requestedAddress { environment["AWARE_NEW_NMI"] = requestedAddress }
        return environment
    }
}

/// Where the runner's phone gets the PIN it types.
public enum PINInput: Hashable, Sendable {
    /// What the accessory's display shows: `accessory-emu`'s, which the runner reads in process or
    /// from the socket air's side channel; where nothing is shown, the profile's fixed PIN
    /// (`pairing.pin.fixed`, a label), then a prompt when a person is at the terminal.
    case display
    /// `--pin`: one PIN for every attempt, as printed on a label.
    case given(String)
    /// `--pin-command`: run each time a PIN is needed, after the accessory accepted PIN
    /// bootstrapping; the first line of its output is the PIN.
    case command(OperatorCommand)

    /// Why `text` cannot be a PIN the accessory shows, or nil when it can: 4 to 8 decimal digits
    /// (the profile's `pairing.pin`, docs/reference/profile-reference.md), exactly `length` when the
    /// profile says how many.
    public static func problem(with text: String, length: Int?) -> String? {
        let digits = text.unicodeScalars
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            return "is not a PIN: a PIN is 4 to 8 digits 0-9"
        }
        guard (4...8).contains(digits.count) else { return "has \(digits.count) digits: a PIN has 4 to 8" }
        if let length, digits.count != length {
            return "has \(digits.count) digits, but the profile's PIN has \(length) (pairing.pin.length)"
        }
        return nil
    }
}

/// Questions to the person at the terminal, one at a time (tests may run in parallel).
enum OperatorPrompt {
    private static let lock = NSLock()

    /// Shows `question` on standard error and returns the line typed (without its newline); nil
    /// at the end of input.
    static func ask(_ question: String) -> String? {
        lock.withLock {
            FileHandle.standardError.write(Data(("aware-conform: " + question + " ").utf8))
            return readLine(strippingNewline: true)
        }
    }
}
