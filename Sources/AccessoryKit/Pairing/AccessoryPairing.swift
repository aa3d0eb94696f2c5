import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The accessory's pairing policy (nan-wire-reference.md 3; apple-peer-model.md 3-5): the
/// device's ``PairingManager`` runs the protocol (bootstrapping, PASN, the NIK exchange, the
/// store); this decides who may pair, shows a fresh PIN for each attempt (or the profile's
/// fixed one), limits wrong PINs, keeps the paired-device limit (refusing one more phone, or
/// replacing the oldest pairing), applies the profile's faults, and logs what happens.
final class AccessoryPairing: PairingDelegate {
    let settings: PairingSettings
    let pairingName: String
    let manager: PairingManager
    let faults: Set<AccessoryFault>
    let pinSource: PINSource
    /// Wrong PINs per phone and overall; kept in `lockout.json` when there is a state directory.
    var lockout: PairingLockout
    let lockoutFile: LockoutFile?
    /// When each lockout in force ends (a phone's, or everyone's under nil).
    var unlockWork: [MACAddress?: ScheduledWork] = [:]
    /// PIN of the current attempt, per phone; gone once the attempt ends.
    var pins: [MACAddress: PINCode] = [:]
    var lastPIN: PINCode?

    var emit: (String, [(String, JSONValue)], String) -> Void
    var display: (PINDisplay) -> Void
    /// Where an attempt this accessory initiated ends (the reverse role, ``AccessorySubscriber``).
    var attemptEnded: ((PairingAttemptResult) -> Void)?

    init(
        settings: PairingSettings,
        pairingName: String,
        services: [ServiceProfile] = [],
        device: NANDevice,
        store: PairingStore?,
        seed: UInt64,
        faults: Set<AccessoryFault>,
        pinSource: PINSource,
        emit: @escaping (String, [(String, JSONValue)], String) -> Void,
        display: @escaping (PINDisplay) -> Void
    ) {
        self.settings = settings
        self.pairingName = pairingName
        self.faults = faults
        self.pinSource = pinSource
        self.emit = emit
        self.display = display
        lockout = PairingLockout(policy: settings.pin)
        lockoutFile = store.map { LockoutFile(directory: $0.directory) }
        if let store, faults.contains(.keysSurviveReset) { Self.restoreShadowCopy(store) }
        manager = PairingManager(
            device: device,
            configuration: Self.configuration(
                settings,
                faults: faults,
                keyExchangeServiceInfo: Self.keyExchangeServiceInfo(services, instanceName: pairingName)
            ),
            store: store,
            random: DeviceRandom(seed: seed ^ 0x5041_4952_494E_4721)
        )
        manager.advertiseIdentity(nonce: faults.contains(.fixedNIRANonce) ? [UInt8](repeating: 0x4E, count: 8) : nil)
        manager.delegate = self
    }

    /// Reports what the state directory held at start (after the accessory's `ready`: events
    /// emitted while it is being built reach nobody): a pairing store that does not read, and
    /// lockouts still in force, which take up their timers from now.
    func start() {
        if let problem = manager.storeProblem {
            emit("error", [("message", .string("pairing store: \(problem)"))], "pairing store: \(problem)")
        }
        restoreLockout()
    }

    /// The manager's configuration: the profile's `pairing` section, and the faults that are
    /// departures from the protocol itself.
    static func configuration(
        _ settings: PairingSettings,
        faults: Set<AccessoryFault>,
        keyExchangeServiceInfo: [UInt8: ServiceSpecificInfo] = [:]
    ) -> PairingManager.Configuration {
        let deviations: [(AccessoryFault, PairingDeviation)] = [
            (.acceptAnyBootstrapMethod, .acceptsAnyBootstrapMethod), (.acceptWrongCookie, .acceptsWrongCookie),
            (.ignorePASNAbort, .ignoresPASNAbort), (.noReplayCheck, .acceptsReplays),
            (.noVerification, .refusesVerification), (.skipFrame3MIC, .skipsFrame3MIC),
            (.nikWithoutCaching, .sendsNIKWithoutCaching), (.halfDayNIKLifetime, .halfDayNIKLifetime),
            (.staleNIRATag, .staleNIRATag), (.forgetKeysOnRestart, .forgetsPairings),
            (.noFrameProtection, .noFrameProtection), (.nikLifetimeRequired, .requiresNIKLifetime),
            (.nikMICFieldRequired, .readsNIKWithMICField), (.nikMICByFlag, .readsNIKMICByFlag),
            (.bareNIKFollowUp, .sendsBareNIK), (.shortPINWindow, .shortBootstrapSession),
            (.verifyByNMI, .findsPairingByAddress), (.stalePairingKept, .keepsStalePairing),
        ]
        return PairingManager.Configuration(
            responds: true,
            offeredMethods: BootstrappingMethods(rawValue: settings.bootstrappingBitmap),
            comebackAfterTU: UInt16(clamping: settings.pin.comebackAfterTU),
            cachesKeys: settings.cache.npk && settings.cache.nik,
            nikLifetimeSeconds: settings.cache.nikLifetimeSeconds,
            cipherSuites: settings.cipherSuites.compactMap { NANSecurityCipherSuite(rawValue: $0.csid) },
            // The store refuses one more peer outright; an accessory that replaces its oldest
            // pairing stores the new one first and then forgets the oldest itself
            // (``replaceOldestIfFull(keeping:)``), so the store is given no cap.
            maxPairedDevices: faults.contains(.noPairingLimit) || settings.whenFull == .replaceOldest
                ? nil : settings.maxPairedDevices,
            deviations: Set(deviations.filter { faults.contains($0.0) }.map(\.1)),
            keyExchangeServiceInfo: keyExchangeServiceInfo
        )
    }

    /// What goes beside our NIK for each published service (nan-wire-reference.md 3.9, ESP-IDF's
    /// extras for the iPhone): a Generic Service Protocol with the port its data path serves
    /// (sub-attribute 0x00) and the instance's name (0x03), the name a person sees, as a DNS-SD
    /// instance name is (RFC 6763 4.1.1).
    static func keyExchangeServiceInfo(
        _ services: [ServiceProfile],
        instanceName: String
    ) -> [UInt8: ServiceSpecificInfo] {
        var info: [UInt8: ServiceSpecificInfo] = [:]
        for service in services {
            let gsp = GenericServiceProtocol(subAttributes: [
                .transportPort(service.dataPathPort), .serviceInstanceName(Array(instanceName.utf8)),
            ])
            info[UInt8(clamping: service.instanceId)] = gsp.serviceSpecificInfo
        }
        return info
    }

    var address: MACAddress { manager.device.configuration.address }
    var now: Instant { manager.device.now }

    /// Cancels every timer (the accessory stops).
    func stop() {
        manager.stop()
        for work in unlockWork.values { manager.device.scheduler.cancel(work) }
        unlockWork = [:]
    }

    // MARK: - Who may pair, with which PIN

    /// Shows a fresh PIN and lets the phone come back for it, unless pairing is locked after
    /// wrong PINs (reason 8, SECURITY_POLICY) or the store is full and the profile refuses one
    /// more phone (reason 2, RESOURCE_LIMITATION) (nan-wire-reference.md 2.11). An accessory
    /// that replaces its oldest pairing lets a new phone in here and evicts nothing yet: an
    /// attempt that fails must not cost a pairing.
    func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision {
        if case .lockedOut(let until) = lockout.check(peer, at: now), !faults.contains(.noLockout) {
            return reject(
                peer,
                reasonCode: 8,
                reason: "locked-out",
                detail: "pairing is locked for \((until - now).seconds) s"
            )
        }
        let records = manager.records
        let known = records.contains { $0.peerNMI == peer }
        if !known, settings.whenFull == .refuse, records.count >= settings.maxPairedDevices,
            !faults.contains(.noPairingLimit)
        {
            return reject(
                peer,
                reasonCode: 2,
                reason: "paired-device-limit",
                detail: "already paired with \(records.count) of \(settings.maxPairedDevices) devices"
            )
        }
        if faults.contains(.countCancelledPIN), pins[peer] != nil {
            // The fault: a PIN shown and never followed by PASN (the person cancelled) costs an
            // attempt, as if a wrong PIN had been typed.
            pairingFailed(peer, .aborted, guessSpent: true)
            if case .lockedOut = lockout.check(peer, at: now) {
                return reject(peer, reasonCode: 8, reason: "locked-out", detail: "pairing is locked")
            }
        }
        let pin: PINCode
        if faults.contains(.reusePIN), let lastPIN {
            pin = lastPIN
        } else if let drawn = drawPIN() {
            pin = drawn
        } else {
            return reject(peer, reasonCode: 1, reason: "no-pin", detail: "the PIN could not be drawn")
        }
        pins[peer] = pin
        lastPIN = pin
        display(PINDisplay(pin: pin, peer: peer, accessory: address, pairingName: pairingName, time: now))
        var fields: [(String, JSONValue)] = [
            ("peer", .string(peer.description)), ("digits", .unsigned(UInt64(pin.length))),
        ]
        if faults.contains(.logPIN) { fields.append(("pin", .string(pin.digits))) }
        emit("pin_shown", fields, "showing a \(pin.length)-digit PIN for \(peer)")
        return .authorize
    }

    private func drawPIN() -> PINCode? {
        if let fixed = settings.pin.fixed { return try? PINCode(fixed: fixed) }
        switch pinSource {
        case .systemRandom: return try? PINCode(length: settings.pin.length)
        case .seeded: return try? PINCode(length: settings.pin.length, using: &manager.random.generator)
        }
    }

    private func reject(_ peer: MACAddress, reasonCode: UInt8, reason: String, detail: String) -> BootstrapDecision {
        emit(
            "bootstrap_rejected",
            [
                ("peer", .string(peer.description)), ("reason", .string(reason)),
                ("reasonCode", .unsigned(UInt64(reasonCode))),
            ],
            "refused \(peer): \(detail)"
        )
        return .reject(reasonCode: reasonCode)
    }

    /// The PIN for a pairing setup from `peer`, or nil after refusing it: pairing needs a
    /// bootstrapping that showed a PIN, and is refused while locked (status 1).
    /// The reverse role: the publishing phone accepted our PIN keypad bootstrapping and shows a
    /// PIN. The person enters it on the accessory (``PairingManager/enterPIN(_:)``, the control
    /// socket's `enter-pin`); the event says one is wanted and never carries it.
    func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> PINEntry {
        emit(
            "pin_requested",
            [("peer", .string(peer.description))],
            "\(peer) shows a PIN: enter it on the accessory (control: enter-pin)"
        )
        return .pending
    }

    func pairingManager(_ manager: PairingManager, setupPasswordFor peer: MACAddress, bootstrapped: Bool) -> String? {
        if case .lockedOut = lockout.check(peer, at: now), !faults.contains(.noLockout) {
            emit(
                "pairing_rejected",
                [("peer", .string(peer.description)), ("reason", .string("locked-out"))],
                "refused \(peer): locked"
            )
            return nil
        }
        if let pin = pins[peer], bootstrapped {
            return faults.contains(.wrongPINInSAE) ? Self.otherPIN(pin.digits) : pin.digits
        }
        if faults.contains(.pasnWithoutBootstrap) { return pins[peer]?.digits ?? lastPIN?.digits ?? "000000" }
        emit(
            "pairing_rejected",
            [("peer", .string(peer.description)), ("reason", .string("not-bootstrapped"))],
            "refused \(peer): no PIN was shown for it"
        )
        return nil
    }

    /// A PIN that differs from `digits` in its last digit.
    static func otherPIN(_ digits: String) -> String {
        guard let last = digits.last?.wholeNumberValue else { return digits + "0" }
        return String(digits.dropLast()) + String((last + 1) % 10)
    }

    // MARK: - What happened

    func pairingManager(_ manager: PairingManager, didReport event: PairingEvent) {
        switch event {
        case .bootstrapRequested(let peer, let method):
            emit(
                "bootstrap_requested",
                [("peer", .string(peer.description)), ("method", .unsigned(UInt64(method.rawValue)))],
                "\(peer) asks to pair"
            )
        case .bootstrapAccepted(let peer):
            emit("bootstrap_accepted", [("peer", .string(peer.description))], "bootstrapping with \(peer) accepted")
        case .bootstrapMethodNotOffered(let peer, let requested):
            emit(
                "bootstrap_rejected",
                [
                    ("peer", .string(peer.description)), ("reason", .string("method-not-offered")),
                    ("requested", .unsigned(UInt64(requested.rawValue))),
                ],
                "refused \(peer): bootstrapping method 0x\(String(requested.rawValue, radix: 16)) is not offered"
            )
        case .bootstrapInvalidComeback(let peer):
            pins[peer] = nil
            emit(
                "bootstrap_rejected",
                [("peer", .string(peer.description)), ("reason", .string("invalid-comeback"))],
                "refused \(peer): its comeback request does not match"
            )
        case .bootstrapExpired(let peer), .bootstrapEnded(let peer):
            pins[peer] = nil
        case .peerAddressChanged(let old, _):
            pins[old] = nil
        case .pairingStarted(let peer, let verification):
            emit(
                "pairing_started",
                [("peer", .string(peer.description)), ("kind", .string(verification ? "verification" : "setup"))],
                verification ? "\(peer) verifies its pairing" : "\(peer) pairs"
            )
        case .verificationRefused(let peer):
            emit(
                "verification_failed",
                [("peer", .string(peer.description)), ("reason", .string("no-cached-keys"))],
                "\(peer) asked to verify a pairing we do not have"
            )
        case .replayRejected(let peer, let frame):
            emit(
                "replay_rejected",
                [("peer", .string(peer.description)), ("frame", .unsigned(UInt64(frame)))],
                "ignored a replayed PASN frame \(frame) from \(peer)"
            )
        case .paired(let peer, let suite, let keyCaching):
            if !lockout.isClear {
                lockout.recordSuccess(of: peer)
                saveLockout()
            }
            emit(
                "paired",
                [
                    ("peer", .string(peer.description)), ("cipherSuite", .unsigned(UInt64(suite.csid))),
                    ("keyCaching", .bool(keyCaching)),
                ],
                "paired with \(peer)"
            )
        case .reconnected(let peer):
            emit(
                "reconnected",
                [("peer", .string(peer.description))],
                "\(peer) reconnected with its cached keys, no PIN"
            )
        case .verificationFailed(let peer, let failure):
            emit(
                "verification_failed",
                [("peer", .string(peer.description)), ("reason", .string(failure.reason))],
                "verification with \(peer) failed: \(failure)"
            )
        case .pairingFailed(let peer, let failure, let guessSpent):
            pairingFailed(peer, failure, guessSpent: guessSpent)
        case .nikIgnored(let peer):
            emit(
                "nik_ignored",
                [("peer", .string(peer.description))],
                "ignored \(peer)'s NIK: key caching is off on one side"
            )
        case .nikRefused(let peer, let error):
            emit(
                "nik_refused",
                [("peer", .string(peer.description)), ("reason", .string("\(error)"))],
                "refused \(peer)'s NIK: \(error)"
            )
        case .nikExchanged(let peer, let pairedDevices):
            emit(
                "nik_exchanged",
                [("peer", .string(peer.description)), ("pairedDevices", .unsigned(UInt64(pairedDevices)))],
                "exchanged identity keys with \(peer); \(pairedDevices) paired device(s) stored"
            )
            replaceOldestIfFull(keeping: peer)
        case .recordStored:
            if faults.contains(.keysSurviveReset), let store = manager.store { Self.writeShadowCopy(store) }
        case .storeFailed(let error):
            emit("error", [("message", .string("pairing store: \(error)"))], "pairing store: \(error)")
        case .pairingNotKept(let peer):
            emit(
                "pairing_not_kept",
                [("peer", .string(peer.description))],
                "the pairing with \(peer) was not kept: its keys could not be stored (the error before says why); "
                    + "no NIK went back, so the phone knows the next connection needs a PIN"
            )
        case .attemptEnded(let result):
            attemptEnded?(result)
        case .bootstrapComeback, .bootstrapAuthorized, .frame3Unacknowledged:
            break
        }
    }

    /// `pairing.whenFull: replaceOldest`: once `peer`'s new pairing is kept (and stored, when
    /// there is a store), the oldest pairings (earliest `pairedAt`; the earlier kept on a tie)
    /// beyond `maxPairedDevices` are forgotten, in memory and in the store. Their phones'
    /// cached keys resolve nothing from now on, as an unknown NPKID or NIRA would not.
    private func replaceOldestIfFull(keeping peer: MACAddress) {
        guard settings.whenFull == .replaceOldest, !faults.contains(.noPairingLimit),
            manager.records.count > settings.maxPairedDevices,
            manager.records.contains(where: { $0.peerNMI == peer })
        else { return }
        if let store = manager.store {
            // A pairing that could not be stored does not replace one that is.
            guard (try? store.records)?.contains(where: { $0.peerNMI == peer }) == true else { return }
        }
        while manager.records.count > settings.maxPairedDevices {
            let candidates = manager.records.enumerated().filter { $0.element.peerNMI != peer }
            guard
                let oldest = candidates.min(by: { a, b in
                    (a.element.pairedAt, a.offset) < (b.element.pairedAt, b.offset)
                })?.element
            else { return }
            manager.forgetPairing(with: oldest.peerNMI)
            emit(
                "pairing_replaced",
                [
                    ("peer", .string(oldest.peerNMI.description)), ("by", .string(peer.description)),
                    ("pairedAt", .integer(oldest.pairedAt)),
                    ("maxPairedDevices", .unsigned(UInt64(settings.maxPairedDevices))),
                ],
                "forgot the pairing with \(oldest.peerNMI), the oldest, for \(peer): "
                    + "\(settings.maxPairedDevices) paired device(s) at most"
            )
        }
    }

    /// Once our SAE confirm went out, the phone has tested a PIN: an attempt that does not
    /// complete counts, however it ends (frame 3 wrong, aborted, or never sent).
    private func pairingFailed(_ peer: MACAddress, _ failure: PASNFailure, guessSpent: Bool) {
        var fields: [(String, JSONValue)] = [("peer", .string(peer.description)), ("reason", .string(failure.reason))]
        guard guessSpent, !faults.contains(.noLockout) else {
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure)")
            return
        }
        let outcome = lockout.recordFailure(of: peer, at: now)
        saveLockout()
        switch outcome {
        case .allowed(let remaining):
            fields.append(("remainingAttempts", .unsigned(UInt64(remaining))))
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure); \(remaining) attempts left")
        case .lockedOut(let until, let duration, let everyone):
            fields.append(("remainingAttempts", .unsigned(0)))
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure)")
            locked(everyone ? nil : peer, until: until, duration: duration)
        }
    }

    /// Reports a lockout and arranges for its end to be reported and saved. `peer` nil: everyone.
    private func locked(_ peer: MACAddress?, until: Instant, duration: Interval) {
        var fields: [(String, JSONValue)] = [
            ("seconds", .double(duration.seconds)), ("until", .double(until.seconds)),
            ("scope", .string(peer == nil ? "everyone" : "peer")),
        ]
        if let peer { fields.append(("peer", .string(peer.description))) }
        emit(
            "pairing_locked",
            fields,
            "pairing locked for \(Int(duration.seconds)) s after wrong PINs"
                + (peer.map { " from \($0)" }
                    ?? " from \(PairingLockout.overallFactor * settings.pin.maxWrongAttempts) attempts of any phones")
        )
        if let work = unlockWork[peer] { manager.device.scheduler.cancel(work) }
        unlockWork[peer] = manager.device.scheduler.schedule(at: until) { [weak self] in
            guard let self else { return }
            self.unlockWork[peer] = nil
            var fields: [(String, JSONValue)] = [("scope", .string(peer == nil ? "everyone" : "peer"))]
            if let peer { fields.append(("peer", .string(peer.description))) }
            self.emit("pairing_unlocked", fields, "pairing unlocked" + (peer.map { " for \($0)" } ?? ""))
            self.saveLockout()
        }
    }

    // MARK: - The lockout across restarts

    /// Takes up the lockout saved before the restart. A lockout then in force starts again in full
    /// (``PairingAttemptLimiter/init(policy:restoring:at:)``). The accessory checked the file when
    /// it booted (exit 3 when damaged); should it fail now all the same, pairing locks for everyone
    /// for one lockout rather than forget the count.
    private func restoreLockout() {
        guard let lockoutFile else { return }
        do {
            guard let saved = try lockoutFile.read() else { return }
            lockout = PairingLockout(policy: settings.pin, restoring: saved, at: now)
        } catch {
            emit("error", [("message", .string("lockout: \(error)"))], "lockout: \(error)")
            let everyone = PairingAttemptLimiter.Saved(
                wrongPINs: settings.pin.maxWrongAttempts * PairingLockout.overallFactor,
                lastLockoutSeconds: nil,
                locked: true
            )
            lockout = PairingLockout(policy: settings.pin, restoring: .init(overall: everyone, peers: []), at: now)
        }
        if case .lockedOut(let until) = lockout.overall.check(at: now) {
            locked(nil, until: until, duration: until - now)
        }
        for (peer, limiter) in lockout.peers.sorted(by: { $0.key.description < $1.key.description }) {
            if case .lockedOut(let until) = limiter.check(at: now) { locked(peer, until: until, duration: until - now) }
        }
    }

    /// Keeps the lockout in `lockout.json`. A failure is never silent: the lockout then holds in
    /// memory, until a restart, and the error says so.
    private func saveLockout() {
        guard let lockoutFile else { return }
        do {
            try lockoutFile.write(lockout, at: now)
        } catch {
            emit(
                "error",
                [("message", .string("lockout: \(error)"))],
                "lockout: \(error); the count of wrong PINs holds until the accessory restarts"
            )
        }
    }

    // MARK: - The keys-survive-reset fault

    /// The `keys-survive-reset` fault: firmware that mirrors its pairings into a second file the
    /// factory reset does not know about, and restores them when the store is empty.
    static let shadowName = "pairings-shadow.json"

    static func writeShadowCopy(_ store: PairingStore) {
        guard let data = try? store.directory.read(PairingStore.fileName) else { return }
        try? store.directory.writeAtomically(data, to: shadowName)
    }

    static func restoreShadowCopy(_ store: PairingStore) {
        guard (try? store.directory.read(PairingStore.fileName)) == .some(nil),
            let shadow = try? store.directory.read(shadowName)
        else { return }
        try? store.directory.writeAtomically(shadow, to: PairingStore.fileName)
    }
}
