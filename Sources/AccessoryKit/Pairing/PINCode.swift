import AwareCore
import AwareWire

/// The PIN the accessory displays and the phone's user types (PIN display bootstrapping,
/// nan-wire-reference.md 3.2; it becomes the SAE password, 3.4).
///
/// The digits are a secret until shown: `description`, `debugDescription` and `dump()` say only
/// how many there are. The display path reads them through `digits`.
public struct PINCode: Hashable, Sendable {
    public static let lengths: ClosedRange<Int> = 4...8

    /// The digits, ASCII "0"-"9". Read only to show them to a person or to use them as the password.
    public let digits: String

    public var length: Int { digits.utf8.count }

    /// A profile's fixed PIN (`pairing.pin.fixed`).
    public init(fixed: String) throws(PINCodeError) {
        guard fixed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .notDigits
        }
        guard Self.lengths.contains(fixed.utf8.count) else { throw .notDigits }
        digits = fixed
    }

    /// `length` digits, each drawn uniformly from `generator`.
    public init(length: Int, using generator: inout some RandomNumberGenerator) throws(PINCodeError) {
        guard Self.lengths.contains(length) else { throw .lengthOutOfRange(length) }
        var text: [UInt8] = []
        while text.count < length {
            // One octet per try; octets 250-255 are drawn again. Taking `% 10` of all 256 would
            // make 0-5 likelier than 6-9 (26 ways against 25): rejection keeps every digit at 25.
            let octet = UInt8(truncatingIfNeeded: generator.next())
            guard octet < 250 else { continue }
            text.append(UInt8(ascii: "0") + octet % 10)
        }
        digits = String(decoding: text, as: UTF8.self)
    }

    /// `length` digits from the system's CSPRNG.
    public init(length: Int) throws(PINCodeError) {
        var generator = SystemRandomNumberGenerator()
        try self.init(length: length, using: &generator)
    }

    /// The profile's fixed PIN, or a fresh one of the profile's length from the system's CSPRNG.
    public init(policy: PinPolicy) throws(PINCodeError) {
        if let fixed = policy.fixed {
            try self.init(fixed: fixed)
        } else {
            try self.init(length: policy.length)
        }
    }
}

extension PINCode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PIN(\(length) digits)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["length": length], displayStyle: .struct) }
}

// MARK: - PINCodeError

/// Why a PIN cannot be made.
public enum PINCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// PINs have 4 to 8 digits (profile `pairing.pin.length`).
    case lengthOutOfRange(Int)
    /// A fixed PIN must be 4 to 8 ASCII digits; the text is not repeated here, it is a secret.
    case notDigits

    public var description: String {
        switch self {
        case .lengthOutOfRange(let length): "a PIN has 4 to 8 digits, not \(length)"
        case .notDigits: "a fixed PIN must be 4 to 8 digits 0-9"
        }
    }
}

// MARK: - PINSource

/// Where the accessory's PINs come from.
public enum PINSource: Hashable, Sendable {
    /// The system's CSPRNG: what a real accessory does, and what `accessory-emu` does on a
    /// shared or real air.
    case systemRandom
    /// The run's seeded generator: on the simulated air a seed then replays a pairing bit for
    /// bit, SAE frames included. The PIN is still shown only on the display.
    case seeded
}

// MARK: - PINDisplay

/// What the accessory shows on its display when a phone asks to pair with a PIN: the one
/// place the PIN goes (the "display channel"). `accessory-emu` draws it as a box on the
/// terminal, or prints the `pin_displayed` JSON event, and on a shared air also publishes it on
/// the side channel, where it stands in for the eyes of the person holding the phone.
public struct PINDisplay: Sendable {
    public var pin: PINCode
    /// The phone that asked.
    public var peer: MACAddress
    /// Our own NMI, so that a reader on a shared air can tell accessories apart.
    public var accessory: MACAddress
    public var pairingName: String
    public var time: Instant

    /// `{"event":"pin_displayed","t":…,"pin":"NNNNNN","nmi":…,"peer":…,"pairingName":…}`
    public var json: JSONValue {
        .object([
            ("event", .string("pin_displayed")), ("t", .double((time.seconds * 1e6).rounded() / 1e6)),
            ("pin", .string(pin.digits)), ("nmi", .string(accessory.description)),
            ("peer", .string(peer.description)), ("pairingName", .string(pairingName)),
        ])
    }
}

// MARK: - PINDisplayBox

/// The box a person reads on the accessory's terminal when a phone asks to pair: the PIN in
/// large spaced digits, which accessory is asking, and what to do with it.
public enum PINDisplayBox {
    /// For example, for PIN 483920, pairing name "My Drone" and peer 02:b0:00:00:00:01:
    ///
    ///     ╔═══════════════════════════════════╗
    ///     ║                                   ║
    ///     ║   Pairing “My Drone”              ║
    ///     ║   with 02:b0:00:00:00:01          ║
    ///     ║                                   ║
    ///     ║      4   8   3   9   2   0        ║
    ///     ║                                   ║
    ///     ║   Enter this PIN on your iPhone   ║
    ///     ║                                   ║
    ///     ╚═══════════════════════════════════╝
    public static func render(pin: PINCode, pairingName: String, peer: MACAddress?) -> String {
        let spaced = pin.digits.map(String.init).joined(separator: "   ")
        var lines = ["", "Pairing “\(pairingName)”"]
        if let peer { lines.append("with \(peer)") }
        lines += ["", "   " + spaced, "", "Enter this PIN on your iPhone", ""]
        // Characters, not octets: the pairing name may be any UTF-8 (up to 63 octets).
        let width = lines.map(\.count).max() ?? 0
        let inner = width + 6
        var out = ["╔" + String(repeating: "═", count: inner) + "╗"]
        for line in lines {
            out.append("║   " + line + String(repeating: " ", count: width - line.count) + "   ║")
        }
        out.append("╚" + String(repeating: "═", count: inner) + "╝")
        return out.joined(separator: "\n") + "\n"
    }
}
