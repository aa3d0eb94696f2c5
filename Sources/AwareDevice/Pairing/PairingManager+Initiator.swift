import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// The initiator's side of pairing, as a phone runs it (nan-wire-reference.md 3;
/// apple-peer-model.md 3-5): bootstrapping with PIN keypad, the PASN initiator with the PIN the
/// person reads off the accessory, the NIK exchange, and later verification with cached keys
/// once the accessory's NIRA resolves. One attempt at a time; it ends with
/// ``PairingEvent/attemptEnded(_:)``.
extension PairingManager {
    /// The publisher an initiator pairs with, as discovery found it.
    public struct PairingTarget: Hashable, Sendable {
        public var accessory: MACAddress
        /// Our subscribe instance.
        public var localInstanceID: UInt8
        /// The accessory's publish instance: the service the pairing is for.
        public var peerInstanceID: UInt8
        /// A3 of the accessory's frames (its cluster, or its NMI when unsynchronized).
        public var address3: MACAddress

        public init(accessory: MACAddress, localInstanceID: UInt8, peerInstanceID: UInt8, address3: MACAddress) {
            self.accessory = accessory
            self.localInstanceID = localInstanceID
            self.peerInstanceID = peerInstanceID
            self.address3 = address3
        }
    }

    /// How an initiator pairs, per attempt.
    public struct InitiatorOptions: Hashable, Sendable {
        /// Our own method in the bootstrapping request: PIN keypad, as an iPhone sends
        /// (apple-peer-model.md 3).
        public var method: BootstrappingMethods
        public var suite: NANSecurityCipherSuite
        /// Whether we keep NPK and NIK (our DCEA says so and we send our NIK after pairing).
        public var cachesKeys: Bool
        /// Where this attempt departs from the protocol (the initiator's ``PairingDeviation``s).
        public var deviations: Set<PairingDeviation>
        /// The descriptor form our NIK goes in (nan-wire-reference.md 3.9: phones differ).
        public var nikForm: NIKDelivery.Form
        /// The Key Lifetime KDE we send beside our NIK; nil leaves it out, as an iPhone does (3.9).
        public var nikLifetimeSeconds: UInt32?

        public init(
            method: BootstrappingMethods = .pinCodeKeypad,
            suite: NANSecurityCipherSuite = .ncsPKPASN128,
            cachesKeys: Bool = true,
            deviations: Set<PairingDeviation> = [],
            nikForm: NIKDelivery.Form = .zeroMIC,
            nikLifetimeSeconds: UInt32? = 86_400
        ) {
            self.method = method
            self.suite = suite
            self.cachesKeys = cachesKeys
            self.deviations = deviations
            self.nikForm = nikForm
            self.nikLifetimeSeconds = nikLifetimeSeconds
        }
    }

    struct Attempt {
        var target: PairingTarget
        var options: InitiatorOptions
        var channel: NANChannel
        var verification: PairingRecord?
        var result: PASNResult?
        var ended = false
        /// The delegate answered `.pending`: PASN waits for ``PairingManager/enterPIN(_:)``.
        var awaitingPIN = false

        var accessory: MACAddress { target.accessory }
    }

    /// Pairs with `target`: bootstrapping, then PASN with the PIN the delegate supplies once the
    /// accessory shows one.
    public func pair(with target: PairingTarget, options: InitiatorOptions) {
        startAttempt(target, options: options)
        if options.deviations.contains(.skipsBootstrapping) {
            startPASN()
            return
        }
        bootstrapRequester?.stop()
        let driver = MachineDriver(
            BootstrapRequester(),
            scheduler: device.scheduler,
            random: random,
            transmit: { [unowned self] request in transmitBootstrap(request) },
            notify: { [unowned self] notification in requesterNotified(notification) }
        )
        bootstrapRequester = driver
        driver.handle(
            .start(
                BootstrapTarget(
                    peerAddress: target.accessory,
                    localInstanceID: target.localInstanceID,
                    peerInstanceID: target.peerInstanceID,
                    method: options.method
                )
            )
        )
    }

    /// Verifies the pairing with `target` that `record` keeps (resolved from the accessory's
    /// NIRA, ``resolve(_:publisher:)``); no PIN. Without a record the attempt ends at once.
    public func verify(
        with target: PairingTarget,
        record: PairingRecord?,
        advertisesNIRA: Bool,
        options: InitiatorOptions
    ) {
        startAttempt(target, options: options)
        guard let record else {
            end(.noCachedKeys(advertisesNIRA: advertisesNIRA))
            return
        }
        attempt?.verification = record
        startPASN()
    }

    private func startAttempt(_ target: PairingTarget, options: InitiatorOptions) {
        endAttemptTimers()
        frame1Transmissions = 0
        initiator = nil
        attempt = Attempt(target: target, options: options, channel: device.homeChannel)
    }

    /// Disarms what the attempt has armed: the bootstrapping's and PASN's timers, the NIK wait.
    func endAttemptTimers() {
        nikAfterFrame = nil
        bootstrapRequester?.stop()
        initiator?.stop()
        if let nikWait { device.scheduler.cancel(nikWait) }
        nikWait = nil
    }

    /// Ends the attempt once; what comes later is ignored.
    private func end(_ result: PairingAttemptResult) {
        guard let current = attempt, !current.ended else { return }
        endAttemptTimers()
        attempt?.ended = true
        report(.attemptEnded(result))
    }

    // MARK: - Bootstrapping

    func initiatorFollowUpReceived(_ message: FollowUpMessage) {
        if message.attributes.contains(where: { if case .sharedKeyDescriptor = $0 { true } else { false } }) {
            initiatorNIKReceived(message)
            return
        }
        bootstrapRequester?.handle(.received(message))
    }

    private func transmitBootstrap(_ request: FollowUpRequest) {
        var request = request
        if attempt?.options.deviations.contains(.sendsWrongCookie) == true {
            request.attributes = request.attributes.map { attribute in
                guard case .pairingBootstrapping(var npba) = attribute, let cookie = npba.cookie else {
                    return attribute
                }
                npba.cookie = cookie.map { $0 ^ 0xFF }
                return .pairingBootstrapping(npba)
            }
        }
        device.perform(.transmitFollowUp(request))
    }

    private func requesterNotified(_ notification: BootstrapRequesterNotification) {
        switch notification {
        case .comeback(let after, _):
            report(.bootstrapComeback(after: after))
        case .accepted:
            if let attempt { report(.bootstrapAuthorized(peer: attempt.accessory)) }
            startPASN()
        case .failed(let failure):
            end(.bootstrapFailed(failure))
        case .requestSent:
            break
        }
    }

    // MARK: - PASN

    /// The PIN the delegate answered `.pending` for: PASN starts with it now; nil ends the
    /// attempt as ``PairingAttemptResult/noPIN`` with no frame 1 sent (nothing spent against the
    /// accessory's wrong-PIN limit). Ignored when no attempt waits for a PIN.
    public func enterPIN(_ pin: String?) {
        guard let attempt, attempt.awaitingPIN, !attempt.ended else { return }
        self.attempt?.awaitingPIN = false
        guard let pin else {
            end(.noPIN)
            return
        }
        startPASN(entered: pin)
    }

    /// Whether the current attempt waits for ``enterPIN(_:)``.
    public var awaitingPIN: Bool { attempt.map { $0.awaitingPIN && !$0.ended } ?? false }

    private func startPASN(entered: String? = nil) {
        guard let attempt else { return }
        let options = attempt.options
        var configuration = PASNConfiguration(
            ownAddress: address,
            peerAddress: attempt.accessory,
            address3: attempt.target.address3,
            suite: options.suite,
            channel: attempt.channel
        )
        configuration.verifiesPeerMIC = !options.deviations.contains(.ignoresFrame2MIC)
        // The CSIA names the accessory's publish instance, the service the pairing is for, as
        // hostap's initiator writes it (nan_pairing_add_csia), not the phone's own subscribe ID.
        let csia = NANAttribute.cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [
                    CipherSuite(csid: CipherSuiteID(options.suite.csid), instanceID: attempt.target.peerInstanceID)
                ]
            )
        )
        let credential: PASNCredential
        if let record = attempt.verification {
            guard let npkid = freshNPKID() else { return }
            var npk = record.npk
            if options.deviations.contains(.corruptsCachedNPK) { npk[0] ^= 0xFF }
            credential = .cachedKey(PASNCachedKey(npk: npk, akm: record.akm, ownNPKID: npkid, peerNIK: record.peerNIK))
            configuration.suite = NANSecurityCipherSuite(rawValue: record.cipherSuite) ?? options.suite
            configuration.nanAttributes = [
                csia, .identityResolution(IdentityResolutionAttribute(nonce: npkid.nonce, tag: npkid.tag)),
            ]
        } else {
            let pin: String
            let answer =
                entered.map(PINEntry.entered) ?? delegate?.pairingManager(self, pinToEnterFor: attempt.accessory)
            switch answer ?? .none {
            case .entered(let entered):
                pin = entered
            case .none:
                end(.noPIN)
                return
            case .pending:
                self.attempt?.awaitingPIN = true
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
            if let request = bootstrapRequester?.machine.agreement?.request {
                configuration.nanAttributes.append(.pairingBootstrapping(request))
            }
        }
        let driver = MachineDriver(
            PASNInitiator(configuration: configuration, credential: credential),
            scheduler: device.scheduler,
            random: random,
            transmit: { [unowned self] request in transmitPASN(request) },
            notify: { [unowned self] notification in initiatorNotified(notification) }
        )
        initiator = driver
        driver.handle(.start(nil))
    }

    func initiatorFrameReceived(_ frame: ReceivedFrame) {
        guard let initiator, let attempt else { return }
        if attempt.options.deviations.contains(.abortsAfterFrame2),
            case .pasnAuthentication(let pasn) = frame.frame.body,
            pasn.transactionSequence == 2
        {
            initiator.handle(.abort)
            return
        }
        initiator.handle(.received(frame))
    }

    private func transmitPASN(_ request: TxRequest) {
        sentPASNFrames.append(request)
        transmissions += 1
        let serial = transmissions
        device.transmitFrame(request) { [weak self] acknowledged in
            self?.pasnFrameDelivered(serial: serial, acknowledged: acknowledged)
        }
    }

    private func initiatorNotified(_ notification: PASNNotification) {
        switch notification {
        case .frameSent(let sequence, _):
            if sequence == 1 { frame1Transmissions += 1 }
        case .completed(let result):
            initiatorCompleted(result)
        case .failed(let failure):
            end(.pasnFailed(failure))
        }
    }

    private func initiatorCompleted(_ result: PASNResult) {
        guard var attempt else { return }
        installKeys(result, peer: attempt.accessory)
        if result.isVerification {
            if let record = attempt.verification, record.peerNMI != attempt.accessory {
                var moved = record
                moved.peerNMI = attempt.accessory
                keep(moved)
                persist(moved)
            }
            end(.reconnected(result))
            return
        }
        attempt.result = result
        self.attempt = attempt
        let options = attempt.options
        let exchanges =
            (options.cachesKeys && result.peerCachesKeys) || options.deviations.contains(.sendsNIKRegardless)
        guard exchanges, !options.deviations.contains(.withholdsNIK) else {
            end(.paired(result, nikSent: false, nikReceived: false))
            return
        }
        // The initiator sends its NIK first (nan-wire-reference.md 3.6), then waits for the
        // accessory's; the pairing is reported once both are in, or after 5 s: each follow-up
        // may take its first try and up to 4 retries in later discovery windows (512 TU apart),
        // so on a busy shared air the round trip can take several windows.
        guard
            let skda = try? NIKDelivery.attribute(
                nik: ownNIK,
                lifetimeSeconds: attempt.options.nikLifetimeSeconds,
                nmKEK: result.nmKEK,
                suite: result.suite,
                publishID: attempt.target.localInstanceID,
                form: attempt.options.nikForm
            )
        else { return }
        // It goes once the accessory has acknowledged frame 3 (the last frame transmitted): until
        // the accessory has frame 3 it holds no NM-TK, and it drops the protected follow-up after
        // acknowledging it, so no retry brings it back. Frame 3 can wait for a discovery window
        // on another channel to end while the follow-up goes out in that window.
        nikAfterFrame = (
            serial: transmissions,
            request: FollowUpRequest(
                localInstanceID: attempt.target.localInstanceID,
                peerAddress: attempt.accessory,
                peerInstanceID: attempt.target.peerInstanceID,
                attributes: [skda]
            )
        )
        nikWait = device.scheduler.schedule(at: now + .seconds(5)) { [weak self] in
            self?.end(.paired(result, nikSent: true, nikReceived: false))
        }
    }

    /// The air's last word on PASN frame `serial`: the NIK waiting for it goes now. A frame 3
    /// never acknowledged most likely never arrived; the NIK goes anyway, as a phone would.
    private func pasnFrameDelivered(serial: Int, acknowledged: Bool) {
        guard let waiting = nikAfterFrame, waiting.serial == serial, let attempt, !attempt.ended else { return }
        nikAfterFrame = nil
        if !acknowledged { report(.frame3Unacknowledged(peer: attempt.accessory)) }
        device.perform(.transmitFollowUp(waiting.request))
    }

    private func initiatorNIKReceived(_ message: FollowUpMessage) {
        nikMessagesReceived += 1
        lastNIKFollowUp = message
        guard let attempt, let result = attempt.result, !attempt.ended else { return }
        guard case .success(let nik) = NIKDelivery.receive(message.attributes, nmKEK: result.nmKEK) else { return }
        let record = record(of: result, peer: attempt.accessory, nik: nik)
        if let failure = keepDurably(record) {
            end(.notStored(result, failure))
            return
        }
        end(.paired(result, nikSent: true, nikReceived: true))
    }
}
