import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// The phone's side of NAN pairing, as an iPhone does it (apple-peer-model.md 3-5;
/// nan-wire-reference.md 3): bootstrapping with PIN keypad, PASN initiator with the PIN the
/// person reads off the accessory, NIK exchange, and later verification with cached keys after
/// resolving the accessory's NIRA. One attempt at a time; ``outcome`` is set when it ends.
public final class PhonePairing {
    let device: NANDevice
    let store: PairingStore?
    public private(set) var records: [PairingRecord]
    public let ownNIK: [UInt8]
    var random: SeededGenerator
    public var options = PhonePairingOptions()
    /// The phone's wall clock in Unix seconds: when a pairing was made and whether a cached NIK
    /// has outlived its lifetime. Tests move it.
    public var unixTime: () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// The outcome of the last attempt, once it ended.
    public private(set) var outcome: PairingOutcome?
    /// The ND-PMK and cipher suite of the latest pairing or verification with each accessory:
    /// what the phone secures data paths with (nan-wire-reference.md 3.5, 4.2).
    public private(set) var dataPathKeys: [MACAddress: (ndPMK: [UInt8], suite: NANSecurityCipherSuite)] = [:]
    /// PASN frame 1 and 3 bodies this phone sent, newest last (replay tests re-send them).
    public private(set) var sentPASNFrames: [TxRequest] = []
    /// How many times frame 1 went out in the current attempt.
    public private(set) var frame1Transmissions = 0
    /// NIK follow-ups received from the accessory in this run.
    public private(set) var nikMessagesReceived = 0
    /// Tells the test log what happens.
    var log: ((String, [String: JSONValue]) -> Void)?

    private var attempt: Attempt?
    private var bootstrap = BootstrapRequester()
    private var initiator: PASNInitiator?
    private var timers: [BootstrapTimer: ScheduledWork] = [:]
    private var pasnTimer: ScheduledWork?
    private var pinProvider: (() -> String?)?
    /// PASN frames handed to the device in this run, counted (``pasnFrameDelivered``).
    private var transmissions = 0
    /// The NIK follow-up of a completed pairing, until the frame before it (frame 3) is delivered.
    private var nikAfterFrame: (serial: Int, request: FollowUpRequest)?

    struct Attempt {
        var accessory: MACAddress
        var localInstanceID: UInt8
        var peerInstanceID: UInt8
        var channel: NANChannel
        var address3: MACAddress
        var verification: PairingRecord?
        var result: PASNResult?
    }

    /// `nik`, when given, is the phone's NIK (one of the runner's identities); otherwise the
    /// store's, or one drawn from `seed`.
    init(device: NANDevice, store: PairingStore?, seed: UInt64, nik given: [UInt8]? = nil) {
        self.device = device
        self.store = store
        var generator = SeededGenerator(seed: seed ^ 0x5048_4F4E_4550_4149)
        let drawn = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var nik = given ?? drawn
        var loaded: [PairingRecord] = []
        if let store {
            if let own = try? store.ownNIK(creatingWith: { nik }) { nik = own }
            loaded = (try? store.records) ?? []
        }
        ownNIK = nik
        records = loaded
        random = generator
    }

    var address: MACAddress { device.configuration.address }
    var now: Instant { device.now }

    /// Forgets the NM-TK for `accessory` (the link dropped; hostap `nan_pairing_unpair_peer`):
    /// what a phone does when the accessory went away, before it reconnects.
    public func dropLink(with accessory: MACAddress) {
        device.removePairwiseKey(peer: accessory)
        dataPathKeys[accessory] = nil
    }

    /// Pairs with the publisher of `result`: bootstrapping, then PASN with the PIN `pin` returns
    /// once the accessory shows one.
    public func pair(with result: DiscoveryResult, pin: @escaping () -> String?) {
        start(result, verification: nil)
        pinProvider = pin
        if options.skipsBootstrapping {
            startPASN()
            return
        }
        let target = BootstrapTarget(
            peerAddress: result.publisherAddress,
            localInstanceID: result.subscribeInstanceID,
            peerInstanceID: result.publishInstanceID,
            method: options.method
        )
        bootstrap = BootstrapRequester()
        run(bootstrap.handle(.start(target), now: now, rng: &random))
    }

    /// Verifies the pairing with the publisher of `result`, found through its NIRA; no PIN.
    public func reconnect(with result: DiscoveryResult) {
        start(result, verification: nil)
        guard let record = resolve(result) else {
            let detail =
                result.identityResolution == nil
                ? "the accessory advertises no NIRA" : "no cached NIK resolves the accessory's NIRA"
            finish(.failed("no-cached-keys", detail, accessory: result.publisherAddress))
            return
        }
        attempt?.verification = record
        startPASN()
    }

    /// The cached pairing whose NIK resolves the NIRA of `result` (nan-wire-reference.md 2.17:
    /// every cached NIK with the publisher's current NMI and nonce). A NIK past the lifetime the
    /// accessory gave it in its Key Lifetime KDE resolves nothing: the phone honours it.
    public func resolve(_ result: DiscoveryResult) -> PairingRecord? {
        guard let nira = result.identityResolution else { return nil }
        return Self.resolving(records, nira: nira, publisher: result.publisherAddress, now: unixTime())
    }

    /// The first of `records` whose NIK, still within its lifetime at `now` (Unix seconds),
    /// resolves `nira` as sent by `publisher`.
    static func resolving(
        _ records: [PairingRecord],
        nira: IdentityResolutionAttribute,
        publisher: MACAddress,
        now: Int64
    ) -> PairingRecord? {
        records.first { record in
            guard let nik = record.peerNIK, record.nikIsValid(at: now) else { return false }
            return NIRATag.matches(tag: nira.tag, nik: nik, nmi: publisher.octets, nonce: nira.nonce)
        }
    }

    private func start(_ result: DiscoveryResult, verification: PairingRecord?) {
        cancelTimers()
        outcome = nil
        frame1Transmissions = 0
        initiator = nil
        attempt = Attempt(
            accessory: result.publisherAddress,
            localInstanceID: result.subscribeInstanceID,
            peerInstanceID: result.publishInstanceID,
            channel: device.homeChannel,
            address3: result.addressThree,
            verification: verification,
            result: nil
        )
    }

    // MARK: - Bootstrapping

    func followUpReceived(_ message: FollowUpMessage) {
        guard let attempt, message.peerAddress == attempt.accessory else { return }
        if message.attributes.contains(where: { if case .sharedKeyDescriptor = $0 { true } else { false } }) {
            nikReceived(message)
            return
        }
        run(bootstrap.handle(.received(message), now: now, rng: &random))
    }

    private func run(_ actions: [BootstrapRequesterAction]) {
        for action in actions {
            switch action {
            case .transmit(var request):
                if options.wrongCookie {
                    request.attributes = request.attributes.map { attribute in
                        guard case .pairingBootstrapping(var npba) = attribute, let cookie = npba.cookie else {
                            return attribute
                        }
                        npba.cookie = cookie.map { $0 ^ 0xFF }
                        return .pairingBootstrapping(npba)
                    }
                }
                device.perform(.transmitFollowUp(request))
            case .arm(let timer, let instant):
                if let previous = timers[timer] { device.scheduler.cancel(previous) }
                timers[timer] = device.scheduler.schedule(at: instant) { [weak self] in
                    guard let self else { return }
                    self.timers[timer] = nil
                    self.run(self.bootstrap.handle(.timerFired(timer), now: self.now, rng: &self.random))
                }
            case .cancel(let timer):
                if let work = timers.removeValue(forKey: timer) { device.scheduler.cancel(work) }
            case .notify(.comeback(let after, _)):
                log?("bootstrap_comeback", ["afterSeconds": .double(after.seconds)])
            case .notify(.accepted):
                log?("bootstrap_accepted", [:])
                startPASN()
            case .notify(.failed(let failure)):
                let accessory = attempt?.accessory ?? address
                finish(
                    .failed(
                        PairingOutcome.reason(for: failure),
                        "bootstrapping failed: \(failure)",
                        accessory: accessory
                    )
                )
            case .notify(.requestSent):
                break
            }
        }
    }

    // MARK: - PASN

    private func startPASN() {
        guard let attempt else { return }
        var configuration = PASNConfiguration(
            ownAddress: address,
            peerAddress: attempt.accessory,
            address3: attempt.address3,
            suite: options.suite,
            channel: attempt.channel
        )
        configuration.verifiesPeerMIC = !options.ignoresFrame2MIC
        // The CSIA names the accessory's publish instance, the service the pairing is for, as
        // hostap's initiator writes it (nan_pairing_add_csia), not the phone's own subscribe ID.
        let csia = NANAttribute.cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [
                    CipherSuite(csid: CipherSuiteID(options.suite.csid), instanceID: attempt.peerInstanceID)
                ]
            )
        )
        let credential: PASNCredential
        if let record = attempt.verification {
            let nonce = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
            guard let npkid = try? NPKID(nik: ownNIK, nmi: address.octets, nonce: nonce) else { return }
            var npk = record.npk
            if options.corruptsCachedNPK { npk[0] ^= 0xFF }
            credential = .cachedKey(
                PASNCachedKey(
                    npk: npk,
                    akm: record.akm,
                    ownNPKID: npkid,
                    peerNIK: record.peerNIK
                )
            )
            configuration.suite = NANSecurityCipherSuite(rawValue: record.cipherSuite) ?? options.suite
            configuration.nanAttributes = [
                csia, .identityResolution(IdentityResolutionAttribute(nonce: npkid.nonce, tag: npkid.tag)),
            ]
        } else {
            guard let pin = pinProvider?() else {
                finish(.failed("no-pin", "the accessory showed no PIN to enter", accessory: attempt.accessory))
                return
            }
            credential = .password(Array(pin.utf8))
            configuration.nanAttributes = [
                csia,
                .deviceCapabilityExtension(
                    DeviceCapabilityExtensionAttribute(
                        pairingSetupEnabled: true,
                        npkNIKCachingEnabled: options.cachesKeys
                    )
                ),
            ]
            if let request = bootstrap.agreement?.request {
                configuration.nanAttributes.append(.pairingBootstrapping(request))
            }
        }
        var machine = PASNInitiator(configuration: configuration, credential: credential)
        let actions = machine.handle(.start(nil), now: now, rng: &random)
        initiator = machine
        perform(actions)
    }

    func pasnFrameReceived(_ frame: ReceivedFrame) {
        guard var machine = initiator, frame.transmitter == attempt?.accessory else { return }
        if options.abortsAfterFrame2, case .pasnAuthentication(let pasn) = frame.frame.body,
            pasn.transactionSequence == 2
        {
            let actions = machine.handle(.abort, now: now, rng: &random)
            initiator = machine
            perform(actions)
            return
        }
        let actions = machine.handle(.received(frame), now: now, rng: &random)
        initiator = machine
        perform(actions)
    }

    private func perform(_ actions: [PASNAction]) {
        for action in actions {
            switch action {
            case .transmit(let request):
                sentPASNFrames.append(request)
                transmissions += 1
                let serial = transmissions
                device.transmitFrame(request) { [weak self] acknowledged in
                    self?.pasnFrameDelivered(serial: serial, acknowledged: acknowledged)
                }
            case .armTimer(let instant):
                if let pasnTimer { device.scheduler.cancel(pasnTimer) }
                pasnTimer = device.scheduler.schedule(at: instant) { [weak self] in
                    guard let self, var machine = self.initiator else { return }
                    self.pasnTimer = nil
                    let actions = machine.handle(.timerFired, now: self.now, rng: &self.random)
                    self.initiator = machine
                    self.perform(actions)
                }
            case .cancelTimer:
                if let pasnTimer { device.scheduler.cancel(pasnTimer) }
                pasnTimer = nil
            case .notify(.frameSent(let sequence, _)):
                if sequence == 1 { frame1Transmissions += 1 }
            case .notify(.completed(let result)):
                completed(result)
            case .notify(.failed(let failure)):
                finish(.failed(failure.reason, "PASN failed: \(failure)", accessory: attempt?.accessory ?? address))
            }
        }
    }

    private func completed(_ result: PASNResult) {
        guard var attempt else { return }
        dataPathKeys[attempt.accessory] = (result.ndPMK, result.suite)
        device.installPairwiseKey(
            peer: attempt.accessory,
            key: result.tk,
            cipher: result.suite == .ncsPKPASN256 ? .gcmp256 : .ccmp128
        )
        if result.isVerification {
            if let record = attempt.verification, record.peerNMI != attempt.accessory {
                var moved = record
                moved.peerNMI = attempt.accessory
                save(moved)
            }
            finish(
                PairingOutcome(
                    result: .reconnected,
                    detail: "verified the cached pairing; no PIN",
                    accessory: attempt.accessory,
                    keysCached: true,
                    cipherSuite: result.suite.csid
                )
            )
            return
        }
        attempt.result = result
        self.attempt = attempt
        guard (options.cachesKeys && result.peerCachesKeys) || options.sendsNIKRegardless else {
            finish(
                PairingOutcome(
                    result: .paired,
                    detail: "paired; keys are not cached (caching is off on one side), so a reconnect needs a PIN",
                    accessory: attempt.accessory,
                    cipherSuite: result.suite.csid
                )
            )
            return
        }
        // The initiator sends its NIK first (nan-wire-reference.md 3.6), then waits for the
        // accessory's; the pairing is reported once both are in, or after 5 s: each follow-up
        // may take its first try and up to 4 retries in later discovery windows (512 TU apart),
        // so on a busy shared air the round trip can take several windows.
        guard
            let skda = try? NIKDelivery.attribute(
                nik: ownNIK,
                lifetimeSeconds: 86400,
                nmKEK: result.nmKEK,
                suite: result.suite,
                publishID: attempt.localInstanceID
            )
        else { return }
        // It goes once the accessory has acknowledged frame 3 (the last frame transmitted): until
        // the accessory has frame 3 it holds no NM-TK, and it drops the protected follow-up after
        // acknowledging it, so no retry brings it back. Frame 3 can wait for a discovery window
        // on another channel to end while the follow-up goes out in that window.
        nikAfterFrame = (
            serial: transmissions,
            request: FollowUpRequest(
                localInstanceID: attempt.localInstanceID,
                peerAddress: attempt.accessory,
                peerInstanceID: attempt.peerInstanceID,
                attributes: [skda]
            )
        )
        let accessory = attempt.accessory
        pasnTimer = device.scheduler.schedule(at: now + .seconds(5)) { [weak self] in
            guard let self, self.outcome == nil else { return }
            self.finish(
                PairingOutcome(
                    result: .paired,
                    reason: "no-nik",
                    detail: "paired, but the accessory sent no NIK: a reconnect will need a PIN",
                    accessory: accessory,
                    cipherSuite: result.suite.csid
                )
            )
        }
    }

    /// The air's last word on PASN frame `serial`: the NIK waiting for it goes now. A frame 3
    /// never acknowledged most likely never arrived; the NIK goes anyway, as a phone would.
    private func pasnFrameDelivered(serial: Int, acknowledged: Bool) {
        guard let waiting = nikAfterFrame, waiting.serial == serial, outcome == nil else { return }
        nikAfterFrame = nil
        if !acknowledged { log?("pasn_frame_unacknowledged", ["frame": .unsigned(3)]) }
        device.perform(.transmitFollowUp(waiting.request))
    }

    private func nikReceived(_ message: FollowUpMessage) {
        nikMessagesReceived += 1
        guard let attempt, let result = attempt.result, outcome == nil else { return }
        guard case .success(let nik) = NIKDelivery.receive(message.attributes, nmKEK: result.nmKEK) else { return }
        save(
            PairingRecord(
                peerNMI: attempt.accessory,
                peerNIK: nik.nik,
                npk: result.npk,
                akm: result.akm,
                cipherSuite: result.suite.csid,
                pairedAt: unixTime(),
                nikLifetimeSeconds: NIKDelivery.keptLifetime(received: nik.lifetime)
            )
        )
        finish(
            PairingOutcome(
                result: .paired,
                detail: "paired; both sides cache keys, so the next connection needs no PIN",
                accessory: attempt.accessory,
                keysCached: true,
                cipherSuite: result.suite.csid
            )
        )
    }

    private func save(_ record: PairingRecord) {
        records.removeAll { $0.peerNMI == record.peerNMI || ($0.peerNIK != nil && $0.peerNIK == record.peerNIK) }
        records.append(record)
        do throws(DeviceStateError) {
            try store?.upsert(record, cap: nil)
        } catch {
            log?("phone_store_error", ["message": .string("\(error)")])
        }
    }

    private func finish(_ result: PairingOutcome) {
        guard outcome == nil else { return }
        cancelTimers()
        outcome = result
        var fields: [String: JSONValue] = ["result": .string(result.result.rawValue), "detail": .string(result.detail)]
        if let reason = result.reason { fields["reason"] = .string(reason) }
        log?("pairing_outcome", fields)
    }

    private func cancelTimers() {
        nikAfterFrame = nil
        for work in timers.values { device.scheduler.cancel(work) }
        timers.removeAll()
        if let pasnTimer { device.scheduler.cancel(pasnTimer) }
        pasnTimer = nil
    }
}

/// How the phone pairs: what it asks for and what it does when a test wants it to misbehave.
public struct PhonePairingOptions: Hashable, Sendable {
    /// The phone's own method in the bootstrapping request: PIN keypad, as an iPhone sends
    /// (apple-peer-model.md 3).
    public var method: BootstrappingMethods
    public var suite: NANSecurityCipherSuite
    /// The phone keeps NPK and NIK (its DCEA says so and it sends its NIK after pairing).
    public var cachesKeys: Bool
    /// Skip bootstrapping and start PASN at once (a rogue phone; tests of refusal).
    public var skipsBootstrapping: Bool
    /// Stop after PASN frame 2 and send an abort instead of frame 3.
    public var abortsAfterFrame2: Bool
    /// A wrong NPK for verification (tests that the accessory checks frame 3's MIC).
    public var corruptsCachedNPK: Bool
    /// Carry on to frame 3 even when frame 2's MIC does not verify (a rogue phone).
    public var ignoresFrame2MIC: Bool
    /// Answer the comeback with another cookie.
    public var wrongCookie: Bool
    /// Send its NIK after pairing even when caching is off on one side (a rogue phone: tests
    /// that the accessory then keeps its own NIK to itself).
    public var sendsNIKRegardless = false

    public init(
        method: BootstrappingMethods = .pinCodeKeypad,
        suite: NANSecurityCipherSuite = .ncsPKPASN128,
        cachesKeys: Bool = true,
        skipsBootstrapping: Bool = false,
        abortsAfterFrame2: Bool = false,
        corruptsCachedNPK: Bool = false,
        ignoresFrame2MIC: Bool = false,
        wrongCookie: Bool = false
    ) {
        self.method = method
        self.suite = suite
        self.cachesKeys = cachesKeys
        self.skipsBootstrapping = skipsBootstrapping
        self.abortsAfterFrame2 = abortsAfterFrame2
        self.corruptsCachedNPK = corruptsCachedNPK
        self.ignoresFrame2MIC = ignoresFrame2MIC
        self.wrongCookie = wrongCookie
    }
}

/// How a phone's pairing or reconnect ended, as `aware-conform pair` / `reconnect` report it.
public struct PairingOutcome: Hashable, Sendable {
    public enum Result: String, Hashable, Sendable {
        case paired
        case reconnected
        case failed
    }

    public var result: Result
    /// Machine-readable: `sae-confirm-mismatch`, `locked-out`, `no-cached-keys`, `timeout`, ...
    public var reason: String?
    /// For people.
    public var detail: String
    public var accessory: MACAddress
    /// Whether both sides exchanged NIKs, so that a later reconnect needs no PIN.
    public var keysCached: Bool
    public var cipherSuite: UInt8?

    public init(
        result: Result,
        reason: String? = nil,
        detail: String,
        accessory: MACAddress,
        keysCached: Bool = false,
        cipherSuite: UInt8? = nil
    ) {
        self.result = result
        self.reason = reason
        self.detail = detail
        self.accessory = accessory
        self.keysCached = keysCached
        self.cipherSuite = cipherSuite
    }

    public var succeeded: Bool { result != .failed }

    public static func failed(_ reason: String, _ detail: String, accessory: MACAddress) -> PairingOutcome {
        PairingOutcome(result: .failed, reason: reason, detail: detail, accessory: accessory)
    }

    /// The runner's name for a bootstrapping failure (nan-wire-reference.md 2.11).
    static func reason(for failure: BootstrapFailure) -> String {
        switch failure {
        case .rejected(let code):
            switch code {
            case 8: "locked-out"
            case 2: "paired-device-limit"
            case 13: "bootstrap-rejected"
            default: "bootstrap-rejected"
            }
        case .timeout: "timeout"
        case .methodMismatch: "bootstrap-method-mismatch"
        case .tooManyComebacks: "too-many-comebacks"
        case .invalidMethod: "invalid-method"
        case .aborted: "aborted"
        }
    }
}
