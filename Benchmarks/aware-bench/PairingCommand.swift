import ArgumentParser
import AwareCore
import AwareCrypto
import AwareProtocol
import AwareWire
import Foundation

struct PairingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pairing",
        abstract: "CPU time of a full PASN pairing and of a pairing verification (both roles), as ratios.",
        discussion: """
            Runs a PASNInitiator (the phone) and a PASNResponder (the accessory) against each \
            other in this process, frame 1 -> 2 -> 3, with no air, timer or I/O in between: \
            only the protocol machines' own work is timed, in CPU time of this process (user + \
            system, CLOCK_PROCESS_CPUTIME_ID), one iteration at a time; the median counts.

            - pairing: credential .password(PIN), a fresh PIN each iteration. Each side derives \
            PT (2 SSWU maps and a point addition), PWE = val·PT, commits (mask·PWE), processes \
            the peer's commit (scalar·PWE + element, then rand·that), makes an ECDH key pair \
            (k·G) and the shared secret (k·peer), and runs the KDFs and MICs. Both sides: \
            2 k·G + 10 k·P + 2 PT derivations.
            - verification: credential .cachedKey with the NPK of a pairing made here. Each side \
            makes an ECDH key pair and the shared secret: 2 k·G + 2 k·P.

            Point validations and the square roots of compressed ECDH keys are not counted.

            Baselines, measured in the same run for the same count (\(ECCBaseline.ptInVariableBase) k·P \
            stands in for a PT derivation, see sae-pt): Python `cryptography` (OpenSSL) \
            k·G = ec.derive_private_key, k·P = ECDH exchange, run by \
            Benchmarks/baselines/ecc_baseline.py; and `openssl speed ecdhp256|ecdhp384`, whose \
            operation is one k·P. Ratio = our CPU time / the baseline's; above 1, ours is slower. \
            A baseline that cannot run is printed as unavailable and the command still exits 0; \
            an exchange that does not complete on both sides exits 1.
            """
    )

    @Option(help: "Timed iterations of each operation per group (after 2 untimed ones).")
    var iterations = 15

    @Option(help: "SAE group: 19 (P-256, NCS-PK-PASN-128), 20 (P-384, NCS-PK-PASN-256) or all.")
    var group: ECCBaseline.Groups = .all

    @Option(help: "Seeds the PASN randomness, the PINs and the baseline's scalars.")
    var seed: UInt64 = 1

    @Flag(help: "Print only the JSON line.")
    var json = false

    @OptionGroup var baselineOptions: ECCBaseline.Options

    static let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let accessory = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)

    static let pairingCount = ECCBaseline.Count(fixedBase: 2, variableBase: 10, ptDerivations: 2)
    static let verificationCount = ECCBaseline.Count(fixedBase: 2, variableBase: 2, ptDerivations: 0)

    func validate() throws {
        guard iterations >= 1, iterations <= 100_000 else {
            throw ValidationError("--iterations must be in 1...100000")
        }
    }

    func run() throws {
        if !json {
            print(
                "pairing: CPU time per exchange, both roles in one process, median of \(iterations), seed \(seed)"
            )
            BenchSupport.flush()
        }
        var groups: [JSONValue] = []
        for curve in group.curves {
            let suite: NANSecurityCipherSuite = curve == .p256 ? .ncsPKPASN128 : .ncsPKPASN256
            var rng = SeededGenerator(seed: seed ^ UInt64(curve.rawValue))
            var npk: [UInt8] = []
            let pairing = try CPUClock.samples(iterations: iterations) { index in
                let pin = Array(String(100_000 + (index & 0x7FFF_FFFF) % 900_000).utf8)
                npk = try Self.pair(suite: suite, pin: pin, rng: &rng).npk
            }
            let keys = try Self.cachedKeys(npk: npk, rng: &rng)
            let verification = try CPUClock.samples(iterations: iterations) { _ in
                try Self.verify(suite: suite, keys: keys, rng: &rng)
            }
            let baseline = ECCBaseline.measure(curve: curve, options: baselineOptions, seed: seed)
            if !json {
                print("  \(curve) baselines, measured now:")
                for line in baseline.summary.isEmpty ? ["none available"] : baseline.summary { print("    " + line) }
            }
            var members: [(String, JSONValue)] = [
                ("group", .unsigned(UInt64(curve.rawValue))), ("suite", .string("CSID \(suite.csid)")),
            ]
            for (name, samples, count) in [
                ("pairing", pairing, Self.pairingCount), ("verification", verification, Self.verificationCount),
            ] {
                let median = CPUClock.median(samples)
                let comparison = baseline.compare(seconds: median, count: count)
                if !json {
                    print(
                        "    \(name) \(curve): \(ECCBaseline.milliseconds(median)) CPU per \(name) (both roles) "
                            + "= \(count.text)"
                    )
                    for line in comparison.lines { print("      " + line) }
                    BenchSupport.flush()
                }
                members.append(
                    (
                        name,
                        .object(
                            [
                                ("cpuSecondsMedian", BenchSupport.json(median, 7)),
                                ("cpuSecondsMin", BenchSupport.json(samples.min() ?? 0, 7)),
                                ("cpuSecondsMax", BenchSupport.json(samples.max() ?? 0, 7)),
                                ("fixedBase", .unsigned(UInt64(count.fixedBase))),
                                ("variableBase", .unsigned(UInt64(count.variableBase))),
                                ("ptDerivations", .unsigned(UInt64(count.ptDerivations))),
                            ] + comparison.json
                        )
                    )
                )
            }
            groups.append(.object(members))
        }
        BenchSupport.printJSONLine(
            benchmark: "pairing",
            [
                ("iterations", .unsigned(UInt64(iterations))), ("seed", .unsigned(seed)),
                ("clock", .string("CLOCK_PROCESS_CPUTIME_ID")),
                ("ptInVariableBase", .unsigned(UInt64(ECCBaseline.ptInVariableBase))),
                ("groups", .array(groups)),
            ]
        )
    }

    static func configurations(
        suite: NANSecurityCipherSuite
    ) -> (phone: PASNConfiguration, accessory: PASNConfiguration) {
        let csia = NANAttribute.cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [CipherSuite(csid: CipherSuiteID(suite.csid), instanceID: 1)]
            )
        )
        let phone = PASNConfiguration(
            ownAddress: phone,
            peerAddress: accessory,
            address3: clusterID,
            suite: suite,
            nanAttributes: [csia]
        )
        var accessory = phone
        accessory.ownAddress = Self.accessory
        accessory.peerAddress = Self.phone
        return (phone, accessory)
    }

    /// One full pairing: PIN on both sides, frame 1 -> 2 -> 3. Returns the phone's result.
    static func pair(
        suite: NANSecurityCipherSuite,
        pin: [UInt8],
        rng: inout SeededGenerator
    ) throws -> PASNResult {
        let (phone, accessory) = configurations(suite: suite)
        return try exchange(
            initiator: PASNInitiator(configuration: phone, credential: .password(pin)),
            responder: PASNResponder(configuration: accessory, credential: .password(pin)),
            what: "pairing",
            rng: &rng
        )
    }

    /// One pairing verification with the cached NPK on both sides.
    static func verify(
        suite: NANSecurityCipherSuite,
        keys: (phone: PASNCachedKey, accessory: PASNCachedKey),
        rng: inout SeededGenerator
    ) throws {
        let (phone, accessory) = configurations(suite: suite)
        let result = try exchange(
            initiator: PASNInitiator(configuration: phone, credential: .cachedKey(keys.phone)),
            responder: PASNResponder(configuration: accessory, credential: .cachedKey(keys.accessory)),
            what: "verification",
            rng: &rng
        )
        guard result.isVerification else {
            throw BenchSupport.failure(1, "pairing: the verification completed as a pairing setup")
        }
    }

    /// What each side caches after a pairing (nan-wire-reference.md 3.7): the NPK and its own
    /// NPKID; the phone also knows the accessory's NIK, the accessory has already resolved
    /// the phone (as the emulator does before it answers).
    static func cachedKeys(
        npk: [UInt8],
        rng: inout SeededGenerator
    ) throws -> (phone: PASNCachedKey, accessory: PASNCachedKey) {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        let phoneNIK = bytes(NIRATag.nikLength)
        let accessoryNIK = bytes(NIRATag.nikLength)
        do {
            let phoneNPKID = try NPKID(nik: phoneNIK, nmi: phone.octets, nonce: bytes(NIRATag.nonceLength))
            let accessoryNPKID = try NPKID(
                nik: accessoryNIK,
                nmi: accessory.octets,
                nonce: bytes(NIRATag.nonceLength)
            )
            return (
                PASNCachedKey(npk: npk, akm: .sae, ownNPKID: phoneNPKID, peerNIK: accessoryNIK),
                PASNCachedKey(npk: npk, akm: .sae, ownNPKID: accessoryNPKID, peerNIK: nil)
            )
        } catch {
            throw BenchSupport.failure(1, "pairing: cannot make the cached keys: \(error)")
        }
    }

    /// Frame 1 -> 2 -> 3 between the two machines; both must complete with the same keys.
    private static func exchange(
        initiator: PASNInitiator,
        responder: PASNResponder,
        what: String,
        rng: inout SeededGenerator
    ) throws -> PASNResult {
        var initiator = initiator
        var responder = responder
        let frame1 = try frame(initiator.handle(.start(nil), now: .zero, rng: &rng), what, 1)
        let frame2 = try frame(responder.handle(.frame1(frame1, nil), now: .zero, rng: &rng), what, 2)
        let phoneActions = initiator.handle(.received(frame2), now: .zero, rng: &rng)
        let frame3 = try frame(phoneActions, what, 3)
        let accessoryActions = responder.handle(.received(frame3), now: .zero, rng: &rng)
        guard let phoneResult = result(phoneActions), let accessoryResult = result(accessoryActions),
            phoneResult.tk == accessoryResult.tk, phoneResult.npk == accessoryResult.npk
        else {
            throw BenchSupport.failure(1, "pairing: a \(what) did not complete with the same keys on both sides")
        }
        return phoneResult
    }

    private static func frame(_ actions: [PASNAction], _ what: String, _ number: Int) throws -> ReceivedFrame {
        for case .transmit(let request) in actions {
            if let frame = ReceivedFrame(
                bytes: request.frame,
                info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero)
            ) {
                return frame
            }
        }
        throw BenchSupport.failure(1, "pairing: the \(what) sent no parsable frame \(number): \(actions)")
    }

    private static func result(_ actions: [PASNAction]) -> PASNResult? {
        for case .notify(.completed(let result)) in actions { return result }
        return nil
    }
}
