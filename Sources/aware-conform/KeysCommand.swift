import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareCrypto
import AwareWire

/// `aware-conform keys`: the values an accessory developer needs to debug a capture, derived
/// the way the pairing code derives them (nan-wire-reference.md 3.4, 3.5, 2.17).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Derive pairing keys and tags from their inputs, to check a capture by hand.",
        discussion: """
            Each subcommand prints its result as labelled hex, or with --json as one object whose \
            byte strings are lower-case hex. Addresses are written 02:a0:00:00:00:01. Nothing here \
            reads the air: the inputs come from the command line, so secrets are shown only because \
            you passed them.

            EXAMPLE (hostap session A)
              aware-conform keys sae-pwe --group 19 --password 482915 \\
                --addr1 02:a0:00:00:00:01 --addr2 02:b0:00:00:00:02
            """,
        subcommands: [
            SAEPTCommand.self, SAEPWECommand.self, NIRATagCommand.self, PASNPTKCommand.self, NANKDFCommand.self,
        ]
    )
}

/// Parses the shared input formats, as usage errors (exit 2).
enum KeyInput {
    static func octets(_ text: String, _ option: String, length: Int? = nil) throws -> [UInt8] {
        guard let bytes = HexString.decode(text), !bytes.isEmpty else {
            throw ValidationError("\(option) must be hex octets, not \"\(text)\"")
        }
        if let length, bytes.count != length {
            throw ValidationError("\(option) must be \(length) octets, not \(bytes.count)")
        }
        return bytes
    }

    static func address(_ text: String, _ option: String) throws -> [UInt8] {
        guard let address = MACAddress(string: text) else {
            throw ValidationError("\(option) must be a MAC address like 02:a0:00:00:00:01, not \"\(text)\"")
        }
        return address.octets
    }

    static func curve(_ group: Int) throws -> EllipticCurve {
        switch group {
        case 19: .p256
        case 20: .p384
        default: throw ValidationError("--group must be 19 (P-256) or 20 (P-384), not \(group)")
        }
    }

    /// Prints `fields` as `name: hex` lines or one JSON object; fails (exit 1) on an error.
    static func report(_ fields: [(String, [UInt8])], json: Bool) {
        if json {
            print(JSONValue.object(fields.map { ($0.0, .string(HexString.encode($0.1))) }).serialized)
        } else {
            let width = fields.map(\.0.count).max() ?? 0
            for (name, value) in fields {
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + HexString.encode(value))
            }
        }
    }

    static func fail(_ error: some Error) -> ExitCode {
        var standardError = StandardError()
        print("aware-conform keys: \(error)", to: &standardError)
        return ExitCode(1)
    }
}

/// The inputs of SAE hash-to-element, shared by `sae-pt` and `sae-pwe`.
struct SAEPasswordOptions: ParsableArguments {
    @Option(help: "19 (P-256) or 20 (P-384).") var group: Int = 19
    @Option(help: "The PIN or passphrase, as the person enters it.") var password: String
    @Option(help: "The SSID H2E salts with; NAN pairing uses the text 516F9A010000.") var ssid = "516F9A010000"
    @Option(help: "A password identifier (NAN pairing uses none).") var identifier: String?

    func validate() throws { _ = try KeyInput.curve(group) }

    /// The curve and PT (x || y).
    func passwordElement() throws -> (curve: EllipticCurve, pt: [UInt8]) {
        let curve = try KeyInput.curve(group)
        do {
            let element = try SAEPasswordElement.derive(
                group: curve,
                password: Array(password.utf8),
                ssid: Array(ssid.utf8),
                identifier: identifier.map { Array($0.utf8) }
            )
            return (curve, element.pt)
        } catch {
            throw KeyInput.fail(error)
        }
    }
}

/// A point as its two coordinates, named for the report.
private func coordinates(_ point: [UInt8], _ name: String) -> [(String, [UInt8])] {
    let half = point.count / 2
    return [(name + "X", Array(point[..<half])), (name + "Y", Array(point[half...]))]
}

struct SAEPTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sae-pt",
        abstract: "The SAE hash-to-element password element PT (IEEE 802.11-2020 12.4.4.2.3)."
    )

    @OptionGroup var password: SAEPasswordOptions
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        KeyInput.report(coordinates(try password.passwordElement().pt, "pt"), json: json)
    }
}

struct SAEPWECommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sae-pwe",
        abstract: "The SAE password element PWE for two addresses (PT scaled by the address-dependent value)."
    )

    @OptionGroup var password: SAEPasswordOptions
    @Option(help: "One station's address (the order does not matter).") var addr1: String
    @Option(help: "The other station's address.") var addr2: String
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let first = try KeyInput.address(addr1, "--addr1")
        let second = try KeyInput.address(addr2, "--addr2")
        let (curve, pt) = try password.passwordElement()
        do {
            let pwe = try SAE.pwe(pt: pt, group: curve, address1: first, address2: second)
            KeyInput.report(coordinates(pwe, "pwe"), json: json)
        } catch {
            throw KeyInput.fail(error)
        }
    }
}

struct NIRATagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nira-tag",
        abstract: "The NIRA tag: Truncate-64(HMAC-SHA-256(NIK, \"NIR\" || NMI || nonce)) (reference 2.17)."
    )

    @Option(help: "The 16-octet NIK, hex.") var nik: String
    @Option(help: "The NMI the tag is for (the transmitter's own).") var nmi: String
    @Option(help: "The 8-octet nonce, hex.") var nonce: String
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let key = try KeyInput.octets(nik, "--nik", length: 16)
        let address = try KeyInput.address(nmi, "--nmi")
        let value = try KeyInput.octets(nonce, "--nonce", length: 8)
        do {
            let tag = try NIRATag.compute(nik: key, nmi: address, nonce: value)
            KeyInput.report([("tag", tag), ("npkid", value + tag)], json: json)
        } catch {
            throw KeyInput.fail(error)
        }
    }
}

struct PASNPTKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pasn-ptk",
        abstract: "The PASN PTK (KCK, TK, KDK) from the PMK, the two NMIs and the ECDH shared secret.",
        discussion: """
            PASN-PTK = KDF-Hash(PMK, "PASN PTK Derivation", InitiatorNMI || ResponderNMI || DHss) \
            (reference 3.4.2). The hash is SHA-384 only for AKM PASN with a 256-bit cipher; SAE pairing \
            always uses SHA-256 here, as hostap does.
            """
    )

    @Option(help: "The PMK (for SAE pairing: the SAE PMK = NPK), hex.") var pmk: String
    @Option(help: "The PASN initiator's NMI (the phone).") var initiator: String
    @Option(help: "The PASN responder's NMI (the accessory).") var responder: String
    @Option(help: "The ECDH shared secret's x coordinate, hex (32 or 48 octets).") var dhss: String
    @Option(help: "ccmp-128 or gcmp-256.") var cipher = "ccmp-128"
    @Option(help: "sae or pasn.") var akm = "sae"
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let pmkOctets = try KeyInput.octets(pmk, "--pmk")
        let initiatorNMI = try KeyInput.address(initiator, "--initiator")
        let responderNMI = try KeyInput.address(responder, "--responder")
        let secret = try KeyInput.octets(dhss, "--dhss")
        let suite: PASNCipher
        switch cipher {
        case "ccmp-128": suite = .ccmp128
        case "gcmp-256": suite = .gcmp256
        default: throw ValidationError("--cipher must be ccmp-128 or gcmp-256, not \"\(cipher)\"")
        }
        let keyManagement: PASNAKM
        switch akm {
        case "sae": keyManagement = .sae
        case "pasn": keyManagement = .pasn
        default: throw ValidationError("--akm must be sae or pasn, not \"\(akm)\"")
        }
        do {
            let ptk = try PASNPTK.derive(
                pmk: pmkOctets,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                dhss: secret,
                akm: keyManagement,
                cipher: suite
            )
            KeyInput.report([("kck", ptk.kck), ("tk", ptk.tk), ("kdk", ptk.kdk)], json: json)
        } catch {
            throw KeyInput.fail(error)
        }
    }
}

struct NANKDFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nan-kdf",
        abstract: "The NAN key hierarchy from the PASN KDK: NM-KEK, opportunistic NPK, ND-PMK (reference 3.5)."
    )

    @Option(help: "The 32-octet KDK from the PASN PTK, hex.") var kdk: String
    @Option(help: "The pairing initiator's NMI.") var initiator: String
    @Option(help: "The pairing responder's NMI.") var responder: String
    @Option(help: "7 (NCS-PK-PASN-128) or 8 (NCS-PK-PASN-256).") var csid: UInt8 = 7
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        logging.bootstrap()
        let key = try KeyInput.octets(kdk, "--kdk", length: 32)
        let initiatorNMI = try KeyInput.address(initiator, "--initiator")
        let responderNMI = try KeyInput.address(responder, "--responder")
        guard csid == 7 || csid == 8 else { throw ValidationError("--csid must be 7 or 8, not \(csid)") }
        do {
            let suite = try NANSecurityCipherSuite(csid: csid)
            let kek = try NANPairingKeys.nmKEK(
                kdk: key,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                suite: suite
            )
            let npk = try NANPairingKeys.opportunisticNPK(
                kdk: key,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                suite: suite
            )
            let pmk = try NANPairingKeys.ndPMK(
                kdk: key,
                initiatorNMI: initiatorNMI,
                responderNMI: responderNMI,
                suite: suite
            )
            KeyInput.report([("nmKEK", kek), ("opportunisticNPK", npk), ("ndPMK", pmk)], json: json)
        } catch {
            throw KeyInput.fail(error)
        }
    }
}
