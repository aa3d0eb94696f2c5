import AwareCore
import AwareWire
import Testing

@testable import AccessoryKit

/// The control channel's parser (docs/reference/control.md): every command, every refusal with its code
/// and message, and hostile bytes that must end in a refusal, never a trap.
@Suite struct ControlLineTests {
    static func parse(_ text: String) throws(ControlRequestError) -> ControlLine {
        try ControlLine.parse(Array(text.utf8))
    }

    static func refusal(_ text: String) -> ControlRequestError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyCommandParses() throws {
        let nmi = try #require(MACAddress(string: "02:a0:00:00:00:07"))
        let cases: [(String, ControlRequest)] = [
            (#"{"command":"status"}"#, .status),
            (#"{"command":"paired-devices"}"#, .pairedDevices),
            (#"{"command":"reboot"}"#, .reboot(nmi: nil, offSeconds: 0)),
            (#"{"command":"reboot","nmi":"02:a0:00:00:00:07","offSeconds":2.5}"#, .reboot(nmi: nmi, offSeconds: 2.5)),
            (#"{"command":"factory-reset"}"#, .factoryReset),
            (
                #"{"command":"set-faults","faults":["wrong-service-id","no-solicited-reply","wrong-service-id"]}"#,
                .setFaults([.wrongServiceID, .noSolicitedReply])
            ),
            (#"{"command":"clear-faults"}"#, .clearFaults),
            (#"{"command":"set-position","x":150}"#, .setPosition(x: 150, y: 0)),
            (#"{"command":"set-position","x":-3.5,"y":4}"#, .setPosition(x: -3.5, y: 4)),
            (#"{"command":"set-tx-power","dBm":-5}"#, .setTransmitPower(dBm: -5)),
            (
                #"{"command":"update-service","service":"_a._udp","txt":{"fw":"2.0"}}"#,
                .updateService(service: "_a._udp", txt: ["fw": "2.0"])
            ),
            (#"{"command":"update-service","service":"_a._udp"}"#, .updateService(service: "_a._udp", txt: [:])),
            (#"{"command":"renegotiate-schedule"}"#, .renegotiateSchedule(mode: nil)),
            (#"{"command":"renegotiate-schedule","mode":"bulk"}"#, .renegotiateSchedule(mode: .bulk)),
            (#"{"command":"enter-pin","pin":"012345"}"#, .enterPIN("012345")),
            (#"{"command":"shutdown"}"#, .shutdown),
        ]
        for (line, expected) in cases {
            #expect(try Self.parse(line).request == expected, "\(line)")
            #expect(
                try Self.parse(line).request.commandName
                    == ControlRequest.commandNames.first { line.contains("\"\($0)\"") }
            )
        }
        #expect(Set(cases.map(\.1.commandName)) == Set(ControlRequest.commandNames))
    }

    /// `at` (a lockstep air's virtual time) rides beside any command; a negative or fractional
    /// one is refused where it is.
    @Test func aCommandMaySayWhenItTakesEffect() throws {
        #expect(try Self.parse(#"{"command":"enter-pin","pin":"1234","at":3398971728}"#).at == 3_398_971_728)
        #expect(try Self.parse(#"{"command":"status"}"#).at == nil)
        #expect(
            Self.refusal(#"{"command":"status","at":-1}"#)
                == .wrongType(
                    command: "status",
                    field: "at",
                    expected: "a whole number of nanoseconds",
                    found: "a number"
                )
        )
        #expect(
            Self.refusal(#"{"command":"status","at":"now"}"#)
                == .wrongType(
                    command: "status",
                    field: "at",
                    expected: "a whole number of nanoseconds",
                    found: "a string"
                )
        )
    }

    @Test func theIdIsKeptForTheReply() throws {
        #expect(try Self.parse(#"{"id":7,"command":"status"}"#).id == .integer(7))
        #expect(try Self.parse(#"{"command":"status","id":"a-1"}"#).id == .string("a-1"))
        #expect(try Self.parse(#"{"command":"status","id":null}"#).id == nil)
        #expect(
            Self.refusal(#"{"command":"status","id":[1]}"#)
                == .wrongType(command: "status", field: "id", expected: "a string or an integer", found: "a list")
        )
    }

    @Test func refusalsSayWhatAndWhere() {
        let cases: [(String, ControlRequestError, String, String)] = [
            (
                "", .notJSON(column: 1, reason: "the line is empty"), "not-json",
                "not JSON at column 1: the line is empty"
            ),
            ("[1]", .notAnObject(found: "a list"), "not-an-object", "a control line is a JSON object, not a list"),
            (#"{"cmd":"status"}"#, .missingCommand, "missing-command", #"the object has no "command" string"#),
            (#"{"command":3}"#, .missingCommand, "missing-command", #"the object has no "command" string"#),
            (
                #"{"command":"reboot-now"}"#, .unknownCommand("reboot-now"), "unknown-command",
                #"unknown command "reboot-now"; known: status, paired-devices, reboot, factory-reset, set-faults, clear-faults, set-position, set-tx-power, update-service, renegotiate-schedule, enter-pin, shutdown"#
            ),
            (
                #"{"command":"set-faults"}"#, .missingField(command: "set-faults", field: "faults"), "missing-field",
                #"set-faults needs "faults""#
            ),
            (
                #"{"command":"set-position","x":"far"}"#,
                .wrongType(command: "set-position", field: "x", expected: "a number", found: "a string"), "wrong-type",
                #"set-position: "x" must be a number, not a string"#
            ),
            (
                #"{"command":"set-tx-power","dBm":31}"#,
                .invalidValue(command: "set-tx-power", field: "dBm", reason: "must be between -10 and 30, not 31"),
                "invalid-value", #"set-tx-power: "dBm" must be between -10 and 30, not 31"#
            ),
            (
                #"{"command":"set-tx-power","dBm":1.5}"#,
                .wrongType(command: "set-tx-power", field: "dBm", expected: "an integer", found: "a number"),
                "wrong-type", #"set-tx-power: "dBm" must be an integer, not a number"#
            ),
            (
                #"{"command":"reboot","nmi":"01:00:5e:00:00:01"}"#,
                .invalidValue(
                    command: "reboot",
                    field: "nmi",
                    reason:
                        #"must be an individual MAC address other than 00:00:00:00:00:00, like 02:a0:00:00:00:01, not "01:00:5e:00:00:01""#
                ), "invalid-value", ""
            ),
            // Issue 21, finding 9: the null address was accepted and saved as the accessory's NMI.
            (
                #"{"command":"reboot","nmi":"00:00:00:00:00:00"}"#,
                .invalidValue(
                    command: "reboot",
                    field: "nmi",
                    reason:
                        #"must be an individual MAC address other than 00:00:00:00:00:00, like 02:a0:00:00:00:01, not "00:00:00:00:00:00""#
                ), "invalid-value", ""
            ),
            (
                #"{"command":"reboot","offSeconds":61}"#,
                .invalidValue(command: "reboot", field: "offSeconds", reason: "must be between 0.0 and 60.0, not 61"),
                "invalid-value", ""
            ),
            (
                #"{"command":"set-faults","faults":["melt"]}"#,
                .invalidValue(
                    command: "set-faults",
                    field: "faults",
                    reason: #"names an unknown fault "melt" (accessory-emu --help lists them)"#
                ), "invalid-value", ""
            ),
            (
                #"{"command":"update-service","service":"_a._udp","txt":{"k":1}}"#,
                .wrongType(command: "update-service", field: "txt.k", expected: "a string", found: "a number"),
                "wrong-type", ""
            ),
            // The PIN someone typed is never repeated back: it may be right.
            (
                #"{"command":"enter-pin","pin":"12a456"}"#,
                .invalidValue(command: "enter-pin", field: "pin", reason: "must be 4 to 8 decimal digits"),
                "invalid-value", #"enter-pin: "pin" must be 4 to 8 decimal digits"#
            ),
            (
                #"{"command":"enter-pin","pin":"123"}"#,
                .invalidValue(command: "enter-pin", field: "pin", reason: "must be 4 to 8 decimal digits"),
                "invalid-value", ""
            ),
            (
                #"{"command":"enter-pin","pin":123456}"#,
                .wrongType(command: "enter-pin", field: "pin", expected: "a string", found: "a number"),
                "wrong-type", ""
            ),
            (
                #"{"command":"status","verbose":true}"#, .unknownField(command: "status", field: "verbose"),
                "unknown-field", #"status has no field "verbose""#
            ),
            // A key given twice is a syntax error (JSONValue refuses it), at the second copy.
            (
                #"{"command":"status","command":"shutdown"}"#,
                .notJSON(column: 21, reason: #"the key "command" appears twice in this object"#), "not-json",
                #"not JSON at column 21: the key "command" appears twice in this object"#
            ),
            (
                #"{"command":"update-service","service":"_a._udp","txt":{"k":"1","k":"2"}}"#,
                .notJSON(column: 64, reason: #"the key "k" appears twice in this object"#), "not-json", ""
            ),
        ]
        for (line, error, code, message) in cases {
            let refused = Self.refusal(line)
            #expect(refused == error, "\(line)")
            #expect(refused?.code == code, "\(line)")
            if !message.isEmpty { #expect(refused?.description == message, "\(line)") }
        }
    }

    /// TXT entries that cannot be written are refused at the parser (RFC 6763 6.1, 6.2, 6.4).
    @Test func txtEntriesMustFitATXTRecord() {
        func update(_ txt: String) -> String { #"{"command":"update-service","service":"_a._udp","txt":\#(txt)}"# }
        #expect(Self.refusal(update(#"{"k":"\#(String(repeating: "v", count: 253))"}"#)) == nil)
        #expect(
            Self.refusal(update(#"{"k":"\#(String(repeating: "v", count: 254))"}"#))
                == .invalidValue(
                    command: "update-service",
                    field: "txt.k",
                    reason: "is 256 octets as \"key=value\" in UTF-8; a TXT string holds at most 255 (RFC 6763 6.1)"
                )
        )
        let keyRule = "is not a TXT key: 1 or more printable US-ASCII characters other than \"=\" (RFC 6763 6.4)"
        #expect(
            Self.refusal(update(#"{"":"x"}"#))
                == .invalidValue(command: "update-service", field: "txt.", reason: keyRule)
        )
        #expect(
            Self.refusal(update(#"{"a=b":"x"}"#))
                == .invalidValue(command: "update-service", field: "txt.a=b", reason: keyRule)
        )
        #expect(
            Self.refusal(update(#"{"caf\u00e9":"x"}"#))
                == .invalidValue(command: "update-service", field: "txt.café", reason: keyRule)
        )
        // Six strings of 250 octets: 1,506 octets with their length octets.
        let many = (1...6).map { #""k\#($0)":"\#(String(repeating: "v", count: 247))""# }.joined(separator: ",")
        #expect(
            Self.refusal(update("{\(many)}"))
                == .invalidValue(
                    command: "update-service",
                    field: "txt",
                    reason: "takes 1506 octets; an update adds at most 1300 (RFC 6763 6.2)"
                )
        )
    }

    @Test func syntaxErrorsNameTheColumn() {
        guard case .notJSON(let column, _)? = Self.refusal(#"{"command": status}"#) else {
            Issue.record("not refused as JSON")
            return
        }
        #expect(column == 13)
    }

    @Test func hostileBytesAreRefusedNotTrapped() {
        let long = [UInt8](repeating: 0x20, count: ControlLine.maximumLineLength + 1)
        #expect(Self.refusalOf(long) == .tooLong(length: ControlLine.maximumLineLength + 1))
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        #expect(Self.refusalOf(deep)?.code == "not-json")
        #expect(Self.refusalOf([0xFF, 0xFE, 0x7B, 0x7D])?.code == "not-json")
        var generator = SplitMix(seed: 6)
        let alphabet = Array(#"{}[]":,0123456789.-eE truefalsnul\"#.utf8) + [0x00, 0xC3, 0xFF]
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            _ = Self.refusalOf(bytes)
        }
    }

    static func refusalOf(_ bytes: [UInt8]) -> ControlRequestError? {
        do {
            _ = try ControlLine.parse(bytes)
            return nil
        } catch {
            return error
        }
    }
}

/// A small deterministic generator for the hostile-bytes test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
