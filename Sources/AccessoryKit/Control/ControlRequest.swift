import AwareCore
import AwareProtocol
import AwareWire

/// One command to a running accessory on its control channel (`accessory-emu --control PATH`,
/// or `--control-stdin`): one JSON object per line, `{"command": "...", ...}`, optionally with an
/// `"id"` the reply echoes (docs/reference/control.md). These are the lifecycle and environment steps a
/// test harness performs on a device under test, as Matter's harness drives its apps.
public enum ControlRequest: Hashable, Sendable {
    /// Who the accessory is and what it is doing now.
    case status
    /// The phones in the pairing store (their NMIs and when they paired; never a key).
    case pairedDevices
    /// A power cycle in place: the firmware stops, the state directory is read again from disk,
    /// the boot count goes up, and the accessory starts again, after `offSeconds` of silence.
    /// With `nmi`, it comes back under that address (an accessory that rotates its NMI).
    case reboot(nmi: MACAddress?, offSeconds: Double)
    /// Forgets every paired phone, the own NIK and the identity, then starts as a new device.
    case factoryReset
    /// Replaces the active faults (`accessory-emu --fault`); they take effect through a reboot,
    /// as firmware flags would.
    case setFaults([AccessoryFault])
    /// `setFaults([])`.
    case clearFaults
    /// Where the accessory stands, in metres, with the phone at the origin: the link budget on
    /// the socket air follows the same log-distance model the simulated air uses.
    case setPosition(x: Double, y: Double)
    /// The accessory's transmit power, in dBm.
    case setTransmitPower(dBm: Int)
    /// A publish update with new TXT entries (docs/reference/events.md, `update-service`).
    case updateService(service: String, txt: [String: String])
    /// Asks every phone with a data path to move the NDL to the schedule of `mode` (the
    /// accessory's performance mode when nil) with a Schedule Request (NAF subtype 10).
    case renegotiateSchedule(mode: PerformanceMode?)
    /// The reverse role: the PIN the publishing phone shows, for the pairing the accessory
    /// started as a subscriber (event `pin_requested`). Never echoed or logged.
    case enterPIN(String)
    /// Stops the emulator the way SIGTERM does (state written, socket removed).
    case shutdown

    /// The command names, as written on the wire, in the order `--help` lists them.
    public static let commandNames = [
        "status", "paired-devices", "reboot", "factory-reset", "set-faults", "clear-faults", "set-position",
        "set-tx-power", "update-service", "renegotiate-schedule", "enter-pin", "shutdown",
    ]

    /// The name this request has on the wire.
    public var commandName: String {
        switch self {
        case .status: "status"
        case .pairedDevices: "paired-devices"
        case .reboot: "reboot"
        case .factoryReset: "factory-reset"
        case .setFaults: "set-faults"
        case .clearFaults: "clear-faults"
        case .setPosition: "set-position"
        case .setTransmitPower: "set-tx-power"
        case .updateService: "update-service"
        case .renegotiateSchedule: "renegotiate-schedule"
        case .enterPIN: "enter-pin"
        case .shutdown: "shutdown"
        }
    }

    /// The most TXT octets an `update-service` may add: RFC 6763 6.2's bound for a record that
    /// still fits one 1500-octet packet, well inside one 802.11 management frame (2304 octets of
    /// body, IEEE 802.11-2020 9.2.4.7).
    public static let maximumTXTUpdateOctets = 1300

    /// The TXT entries of an `update-service`, as they will be written: each key 1 or more
    /// printable US-ASCII characters other than `=` (RFC 6763 6.4), each `key=value` string at most
    /// 255 octets (its length is one octet, 6.1), and all of them together at most
    /// ``maximumTXTUpdateOctets``. Checked here because the TXT writer cannot refuse: a string it
    /// cannot encode is a programming error there.
    static func checkTXT(_ txt: [String: String], command: String) throws(ControlRequestError) {
        var total = 0
        for (key, value) in txt.sorted(by: { $0.key < $1.key }) {
            let field = "txt.\(key.prefix(40))"
            guard !key.isEmpty, key.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "=") }) else {
                throw .invalidValue(
                    command: command,
                    field: field,
                    reason: "is not a TXT key: 1 or more printable US-ASCII characters other than \"=\" (RFC 6763 6.4)"
                )
            }
            let octets = key.utf8.count + 1 + value.utf8.count
            guard octets <= DNSSDTXTRecord.maximumStringOctets else {
                throw .invalidValue(
                    command: command,
                    field: field,
                    reason: "is \(octets) octets as \"key=value\" in UTF-8; a TXT string holds at most "
                        + "\(DNSSDTXTRecord.maximumStringOctets) (RFC 6763 6.1)"
                )
            }
            total += 1 + octets
        }
        guard total <= maximumTXTUpdateOctets else {
            throw .invalidValue(
                command: command,
                field: "txt",
                reason: "takes \(total) octets; an update adds at most \(maximumTXTUpdateOctets) (RFC 6763 6.2)"
            )
        }
    }

    /// Transmit powers a control request may set: what 2.4 GHz radios can do.
    public static let transmitPowerRange = -10...30
    /// The farthest a control request may place the accessory, in metres.
    public static let maximumDistance = 10_000.0
    /// The longest power-off a reboot may ask for, in seconds.
    public static let maximumOffSeconds = 60.0
}

// MARK: - ControlRequest+Parsing

extension ControlRequest {
    /// The request `command` names, from the object's other members.
    init(command: String, fields: inout ControlFields) throws(ControlRequestError) {
        switch command {
        case "status": self = .status
        case "paired-devices": self = .pairedDevices
        case "reboot":
            let nmi: MACAddress?
            if let text = try fields.optionalString("nmi") {
                guard let address = MACAddress(string: text), address.isStationAddress else {
                    throw .invalidValue(
                        command: command,
                        field: "nmi",
                        reason:
                            "must be an individual MAC address other than 00:00:00:00:00:00, like 02:a0:00:00:00:01, "
                            + "not \"\(text.prefix(40))\""
                    )
                }
                nmi = address
            } else {
                nmi = nil
            }
            let off = try fields.number("offSeconds", in: 0...Self.maximumOffSeconds, default: 0)
            self = .reboot(nmi: nmi, offSeconds: off)
        case "factory-reset": self = .factoryReset
        case "set-faults":
            var faults: [AccessoryFault] = []
            for name in try fields.stringList("faults") {
                guard let fault = AccessoryFault(rawValue: name) else {
                    throw .invalidValue(
                        command: command,
                        field: "faults",
                        reason: "names an unknown fault \"\(name.prefix(40))\" (accessory-emu --help lists them)"
                    )
                }
                if !faults.contains(fault) { faults.append(fault) }
            }
            self = .setFaults(faults)
        case "clear-faults": self = .clearFaults
        case "set-position":
            let limit = Self.maximumDistance
            let x = try fields.number("x", in: -limit...limit)
            let y = try fields.number("y", in: -limit...limit, default: 0)
            self = .setPosition(x: x, y: y)
        case "set-tx-power":
            self = .setTransmitPower(dBm: try fields.integer("dBm", in: Self.transmitPowerRange))
        case "update-service":
            let service = try fields.requiredString("service")
            let txt = try fields.stringMap("txt")
            try Self.checkTXT(txt, command: command)
            self = .updateService(service: service, txt: txt)
        case "renegotiate-schedule":
            let mode: PerformanceMode?
            if let text = try fields.optionalString("mode") {
                guard let value = PerformanceMode(rawValue: text) else {
                    throw .invalidValue(
                        command: command,
                        field: "mode",
                        reason:
                            "must be \(PerformanceMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(text.prefix(40))\""
                    )
                }
                mode = value
            } else {
                mode = nil
            }
            self = .renegotiateSchedule(mode: mode)
        case "enter-pin":
            let pin = try fields.requiredString("pin")
            // A PIN keypad takes digits; 4 to 8 of them, the lengths a profile's PIN may have.
            guard (4...8).contains(pin.count), pin.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                // The value is not repeated: it may be someone's PIN.
                throw .invalidValue(command: command, field: "pin", reason: "must be 4 to 8 decimal digits")
            }
            self = .enterPIN(pin)
        case "shutdown": self = .shutdown
        default: throw .unknownCommand(String(command.prefix(40)))
        }
    }
}

// MARK: - ControlFields

/// The members of a control object, taken one by one so that whatever is left over is a field
/// the command does not know.
struct ControlFields {
    var members: [(String, JSONValue)]
    var command = ""

    init(members: [(String, JSONValue)]) {
        self.members = members
    }

    /// Removes and returns the member called `key` (the parser refuses a key given twice).
    mutating func take(_ key: String) -> JSONValue? {
        guard let index = members.firstIndex(where: { $0.0 == key }) else { return nil }
        return members.remove(at: index).1
    }

    func refuseLeftovers() throws(ControlRequestError) {
        if let first = members.first { throw .unknownField(command: command, field: first.0) }
    }

    mutating func requiredString(_ key: String) throws(ControlRequestError) -> String {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard case .string(let text) = node else {
            throw .wrongType(command: command, field: key, expected: "a string", found: node.kindName)
        }
        return text
    }

    mutating func optionalString(_ key: String) throws(ControlRequestError) -> String? {
        guard let node = take(key), node != .null else { return nil }
        guard case .string(let text) = node else {
            throw .wrongType(command: command, field: key, expected: "a string", found: node.kindName)
        }
        return text
    }

    /// A finite number within `range`.
    mutating func number(
        _ key: String,
        in range: ClosedRange<Double>,
        default fallback: Double? = nil
    ) throws(ControlRequestError) -> Double {
        guard let node = take(key), node != .null else {
            if let fallback { return fallback }
            throw .missingField(command: command, field: key)
        }
        guard let value = node.doubleValue else {
            throw .wrongType(command: command, field: key, expected: "a number", found: node.kindName)
        }
        guard range.contains(value) else {
            throw .invalidValue(
                command: command,
                field: key,
                reason: "must be between \(range.lowerBound) and \(range.upperBound), not \(node.serialized)"
            )
        }
        return value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ControlRequestError) -> Int {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard let value = node.integerValue.flatMap({ Int(exactly: $0) }) else {
            throw .wrongType(command: command, field: key, expected: "an integer", found: node.kindName)
        }
        guard range.contains(value) else {
            throw .invalidValue(
                command: command,
                field: key,
                reason: "must be between \(range.lowerBound) and \(range.upperBound), not \(value)"
            )
        }
        return value
    }

    mutating func stringList(_ key: String) throws(ControlRequestError) -> [String] {
        guard let node = take(key) else { throw .missingField(command: command, field: key) }
        guard case .array(let items) = node else {
            throw .wrongType(command: command, field: key, expected: "a list of strings", found: node.kindName)
        }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                throw .wrongType(
                    command: command,
                    field: key,
                    expected: "a list of strings",
                    found: "a list holding \(item.kindName)"
                )
            }
            strings.append(text)
        }
        return strings
    }

    mutating func stringMap(_ key: String) throws(ControlRequestError) -> [String: String] {
        guard let node = take(key), node != .null else { return [:] }
        guard case .object(let entries) = node else {
            throw .wrongType(command: command, field: key, expected: "an object of strings", found: node.kindName)
        }
        var map: [String: String] = [:]
        for (name, value) in entries {
            guard case .string(let text) = value else {
                throw .wrongType(command: command, field: "\(key).\(name)", expected: "a string", found: value.kindName)
            }
            map[name] = text
        }
        return map
    }
}
