import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// The responder's side of pairing, as an accessory runs it (nan-wire-reference.md 3.2-3.7):
/// it answers bootstrapping requests (the delegate authorizes them and shows the PIN), runs a
/// PASN responder per phone for pairing setup and verification, and answers a paired phone's
/// NIK with its own.
extension PairingManager {
    struct ResponderRun {
        var driver: MachineDriver<PASNResponder>
        var frame1Body: [UInt8]
        /// Our SAE confirm went out: the phone has tested a PIN guess.
        var guessSpent: Bool
    }

    /// The bootstrapping machine, made on first use.
    var bootstrap: MachineDriver<BootstrapResponder> {
        if let bootstrapResponder { return bootstrapResponder }
        let driver = MachineDriver(
            BootstrapResponder(
                configuration: BootstrapResponderConfiguration(
                    offered: configuration.offeredMethods,
                    comebackAfterTU: configuration.comebackAfterTU,
                    sessionLifetime: configuration.deviations.contains(.shortBootstrapSession)
                        ? .seconds(30) : BootstrapResponderConfiguration.defaultSessionLifetime
                )
            ),
            scheduler: device.scheduler,
            random: random,
            transmit: { [unowned self] request in device.perform(.transmitFollowUp(request)) },
            notify: { [unowned self] notification in bootstrapNotified(notification) }
        )
        bootstrapResponder = driver
        return driver
    }

    /// The bootstrapping agreed with `peer`, if one is.
    public func bootstrapAgreement(with peer: MACAddress) -> BootstrapAgreement? {
        bootstrap.machine.agreement(with: peer)
    }

    // MARK: - Bootstrapping

    /// A Follow-up to one of our publishes: a bootstrapping request, or a paired phone's NIK.
    func responderFollowUpReceived(_ message: FollowUpMessage) {
        localInstanceID = message.localInstanceID
        if message.attributes.contains(where: { if case .sharedKeyDescriptor = $0 { true } else { false } }) {
            nikReceived(message)
            return
        }
        bootstrap.handle(.received(deviated(message)))
    }

    /// Deviations that make the responder accept what it must refuse, applied to the request
    /// before the (correct) machine sees it.
    private func deviated(_ message: FollowUpMessage) -> FollowUpMessage {
        let deviations = configuration.deviations
        guard deviations.contains(.acceptsAnyBootstrapMethod) || deviations.contains(.acceptsWrongCookie) else {
            return message
        }
        let offered = configuration.offeredMethods
        let sessions = bootstrap.machine.sessions
        var edited = message
        edited.attributes = message.attributes.map { attribute in
            guard case .pairingBootstrapping(var npba) = attribute, npba.type == .request else { return attribute }
            if deviations.contains(.acceptsAnyBootstrapMethod), !offered.contains(npba.methods.complement) {
                npba.methods = offered.complement.isSingleMethod ? offered.complement : .pinCodeKeypad
            }
            if deviations.contains(.acceptsWrongCookie), npba.status == .comeback,
                case .authorized(let cookie) = sessions[message.peerAddress]?.phase
            {
                npba.cookie = cookie
            }
            return .pairingBootstrapping(npba)
        }
        return edited
    }

    private func bootstrapNotified(_ notification: BootstrapResponderNotification) {
        switch notification {
        case .authorizationRequested(let peer, _, let method):
            report(.bootstrapRequested(peer: peer, method: method))
            endAbandonedPairing(with: peer)
            let decision =
                delegate?.pairingManager(self, authorize: peer, method: method) ?? .reject(reasonCode: 1)
            bootstrap.handle(.decide(peer: peer, decision))
        case .accepted(let peer, _):
            report(.bootstrapAccepted(peer: peer))
        case .methodNotOffered(let peer, let requested):
            report(.bootstrapMethodNotOffered(peer: peer, requested: requested))
        case .invalidComeback(let peer):
            report(.bootstrapInvalidComeback(peer: peer))
        case .sessionExpired(let peer):
            report(.bootstrapExpired(peer: peer))
        }
    }

    /// A phone that asks to bootstrap again has given up the pairing attempt still running here
    /// (its frame 3 was lost, or refused): that attempt ends now, as the phone ended it, and a
    /// guess it spent still counts. Left to its timer, it would end a second later and take the
    /// new bootstrapping down with it, so the phone's comeback would be refused (reason 13).
    private func endAbandonedPairing(with peer: MACAddress) {
        // Firmware that ignores the phone's abort (a deviation) keeps the attempt to its timeout.
        guard let run = responders[peer], !run.driver.machine.isFinished,
            !run.driver.machine.credential.isVerification, !configuration.deviations.contains(.ignoresPASNAbort)
        else { return }
        keepsBootstrap = peer
        defer { keepsBootstrap = nil }
        run.driver.handle(.abort)
    }

    // MARK: - PASN

    /// A PASN Authentication frame for us: frame 1 opens a pairing or a verification, later
    /// frames go to the exchange under way with that phone.
    func responderFrameReceived(_ frame: ReceivedFrame) {
        let peer = frame.transmitter
        let deviations = configuration.deviations
        guard case .pasnAuthentication(let pasn) = frame.frame.body else { return }
        let body = pasn.wireBytes
        if let run = responders[peer], !run.driver.machine.isFinished {
            if pasn.transactionSequence == 3 {
                if deviations.contains(.ignoresPASNAbort), pasn.statusCode != PASNStatusCode.success { return }
                if !deviations.contains(.acceptsReplays), !firstSighting(body) {
                    report(.replayRejected(peer: peer, frame: 3))
                    return
                }
            } else if pasn.transactionSequence == 1, body != run.frame1Body {
                // A new frame 1 while an exchange runs: the phone started over. The running
                // exchange ends (a spent guess if our confirm was out) and the new one starts.
                if deviations.contains(.ignoresPASNAbort) { return }
                run.driver.handle(.abort)
            }
            if let current = responders[peer], !current.driver.machine.isFinished {
                current.driver.handle(.received(frame))
                return
            }
        }
        guard let summary = PASNFrame1Summary(frame, ownAddress: address) else {
            if pasn.transactionSequence == 3, !deviations.contains(.acceptsReplays), !firstSighting(body) {
                report(.replayRejected(peer: peer, frame: 3))
            }
            return
        }
        if !deviations.contains(.acceptsReplays), !firstSighting(summary.body) {
            report(.replayRejected(peer: peer, frame: 1))
            return
        }
        let offered = configuration.cipherSuites.map(\.csid)
        let csid = summary.cipherSuiteIDs.first(where: offered.contains) ?? offered.first ?? 7
        var pasnConfiguration = PASNConfiguration(
            ownAddress: address,
            peerAddress: peer,
            address3: frame.frame.header.address3,
            suite: NANSecurityCipherSuite(rawValue: csid) ?? .ncsPKPASN128,
            channel: device.homeChannel
        )
        let credential: PASNCredential
        if summary.isVerification {
            guard let resolved = verificationCredential(for: summary) else {
                report(.verificationRefused(peer: peer))
                device.transmitFrame(
                    PASNResponder.rejection(status: PASNStatusCode.invalidPMKID, configuration: pasnConfiguration)
                )
                return
            }
            credential = .cachedKey(resolved)
            pasnConfiguration.nanAttributes = [
                csia(csid),
                .identityResolution(
                    IdentityResolutionAttribute(nonce: resolved.ownNPKID.nonce, tag: resolved.ownNPKID.tag)
                ),
            ]
        } else {
            pasnConfiguration.nanAttributes = [csia(csid), dcea]
            let agreement = bootstrap.machine.agreement(with: peer)
            if let request = agreement?.request {
                pasnConfiguration.nanAttributes.append(.pairingBootstrapping(request))
            }
            guard
                let password = delegate?.pairingManager(
                    self,
                    setupPasswordFor: peer,
                    bootstrapped: agreement != nil
                )
            else {
                device.transmitFrame(
                    PASNResponder.rejection(status: PASNStatusCode.requestDeclined, configuration: pasnConfiguration)
                )
                return
            }
            credential = .password(Array(password.utf8))
        }
        report(.pairingStarted(peer: peer, verification: summary.isVerification))
        if let previous = responders[peer] { previous.driver.stop() }
        let driver = MachineDriver(
            PASNResponder(configuration: pasnConfiguration, credential: credential),
            scheduler: device.scheduler,
            random: random,
            transmit: { [unowned self] request in device.transmitFrame(request) },
            notify: { [unowned self] notification in responderNotified(notification, peer: peer) }
        )
        responders[peer] = ResponderRun(driver: driver, frame1Body: summary.body, guessSpent: false)
        driver.handle(.frame1(frame, nil))
        responders[peer]?.guessSpent = driver.machine.confirmSent
    }

    /// Remembers the digest of `body` as acted on; false when it was seen before.
    private func firstSighting(_ body: [UInt8]) -> Bool {
        let digest = KDFHash.sha256.digest(body)
        guard !seenFrames.contains(digest) else { return false }
        seenFrames.append(digest)
        if seenFrames.count > 512 { seenFrames.removeFirst(seenFrames.count - 512) }
        return true
    }

    /// The cached key whose NIK resolves the phone's NPKID with its NMI (3.7), with a fresh
    /// NPKID of ours. A NIK past its lifetime on the calendar resolves nothing.
    private func verificationCredential(for summary: PASNFrame1Summary) -> PASNCachedKey? {
        guard cachesKeys, !configuration.deviations.contains(.refusesVerification), let npkid = summary.npkid else {
            return nil
        }
        let nowUnix = device.scheduler.calendarNow.unixSeconds
        let byAddress = configuration.deviations.contains(.findsPairingByAddress)
        guard
            let record = records.first(where: { record in
                guard let nik = record.peerNIK, record.nikIsValid(at: nowUnix) else { return false }
                if byAddress { return record.peerNMI == summary.initiator }
                return npkid.matches(nik: nik, nmi: summary.initiator.octets)
            })
        else { return nil }
        guard let own = freshNPKID() else { return nil }
        return PASNCachedKey(npk: record.npk, akm: record.akm, ownNPKID: own, peerNIK: nil)
    }

    private func csia(_ csid: UInt8) -> NANAttribute {
        .cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [CipherSuite(csid: CipherSuiteID(csid), instanceID: localInstanceID)]
            )
        )
    }

    private func responderNotified(_ notification: PASNNotification, peer: MACAddress) {
        switch notification {
        case .frameSent: break
        case .completed(let result): responderCompleted(result, peer: peer)
        case .failed(let failure): responderFailed(failure, peer: peer)
        }
    }

    private func responderCompleted(_ result: PASNResult, peer: MACAddress) {
        report(.bootstrapEnded(peer: peer))
        bootstrap.handle(.forget(peer: peer))
        installKeys(result, peer: peer)
        if result.isVerification {
            if let index = records.firstIndex(where: { $0.npk == result.npk }), records[index].peerNMI != peer {
                let old = records[index].peerNMI
                records[index].peerNMI = peer
                persist(records[index])
                forget(old)
                report(.peerAddressChanged(from: old, to: peer))
            }
            report(.reconnected(peer: peer))
            return
        }
        sessions[peer] = result
        report(.paired(peer: peer, suite: result.suite, keyCaching: cachesKeys && result.peerCachesKeys))
    }

    /// Drops what we keep for `old`, an NMI the phone no longer uses: it came back under a new
    /// one and verified the same pairing (phones change NMI between connections). Without this
    /// every NMI change leaves its NM-TK, ND-PMK and finished PASN exchange behind for good.
    private func forget(_ old: MACAddress) {
        responders.removeValue(forKey: old)?.driver.stop()
        dataPathKeys[old] = nil
        sessions[old] = nil
        device.removePairwiseKey(peer: old)
    }

    private func responderFailed(_ failure: PASNFailure, peer: MACAddress) {
        // Once our SAE confirm went out, the phone has tested a PIN: an attempt that does not
        // complete counts, however it ends (frame 3 wrong, aborted, or never sent).
        let guessSpent = responders[peer]?.guessSpent ?? false
        if responders[peer]?.driver.machine.credential.isVerification == true {
            if configuration.deviations.contains(.skipsFrame3MIC), failure == .micMismatch(frame: 3) {
                report(.reconnected(peer: peer))
            } else {
                report(.verificationFailed(peer: peer, failure))
            }
            return
        }
        if keepsBootstrap != peer {
            report(.bootstrapEnded(peer: peer))
            bootstrap.handle(.forget(peer: peer))
        }
        report(.pairingFailed(peer: peer, failure, guessSpent: guessSpent))
    }

    // MARK: - NIK exchange

    /// The phone's NIK after a pairing (nan-wire-reference.md 3.6): it sends first, we keep the
    /// pairing and answer with ours. Both sides must cache keys; otherwise the descriptor is
    /// ignored and nothing is kept.
    private func nikReceived(_ message: FollowUpMessage) {
        let peer = message.peerAddress
        let deviations = configuration.deviations
        guard let result = sessions[peer] else { return }
        let exchange = cachesKeys && result.peerCachesKeys
        guard exchange || deviations.contains(.sendsNIKWithoutCaching) else {
            report(.nikIgnored(peer: peer))
            return
        }
        var layout: ((EAPOLKeyInformation) -> KeyMICLayout)?
        if deviations.contains(.readsNIKWithMICField) { layout = { _ in .octets16 } }
        if deviations.contains(.readsNIKMICByFlag) { layout = { $0.contains(.keyMIC) ? .octets16 : .absent } }
        guard let received = NIKDelivery.receive(message.attributes, nmKEK: result.nmKEK, layout: layout) else {
            return
        }
        let nik: NIKKeyData
        switch received {
        case .success(let value): nik = value
        case .failure(let error):
            report(.nikRefused(peer: peer, error))
            return
        }
        if deviations.contains(.requiresNIKLifetime), nik.lifetime == nil {
            report(.nikRefused(peer: peer, .malformedKeyData(reason: "no Key Lifetime KDE")))
            return
        }
        sessions[peer] = nil
        // Our NIK completes the exchange: the phone caches the pairing once it has it. A pairing
        // whose keys could not be stored would be gone after a restart while the phone still
        // counts on it, so it is not completed: no NIK goes back, and the phone learns that the
        // next connection needs a PIN (its "no-nik").
        let stale = deviations.contains(.keepsStalePairing) && records.contains { $0.peerNIK == nik.nik }
        if exchange, !stale, keepDurably(record(of: result, peer: peer, nik: nik)) != nil { return }
        // A configured 0 ("no expiry") goes on the air as NIKDelivery.noExpiryLifetime, not as
        // a 12-hour lifetime a phone would honour by forgetting the accessory.
        let lifetime =
            deviations.contains(.halfDayNIKLifetime)
            ? 43_200 : NIKDelivery.lifetimeOnWire(seconds: configuration.nikLifetimeSeconds)
        guard
            let attribute = try? NIKDelivery.attribute(
                nik: ownNIK,
                lifetimeSeconds: lifetime,
                nmKEK: result.nmKEK,
                suite: result.suite,
                publishID: message.localInstanceID
            )
        else { return }
        // ESP-IDF notes that the iPhone wants the NIRA beside the NIK before it commits the
        // pairing record, and sends the service's port and instance name with them (3.9).
        var attributes = [dcea, attribute]
        let bare = deviations.contains(.sendsBareNIK)
        if let identityResolution, !bare { attributes.insert(.identityResolution(identityResolution), at: 1) }
        device.perform(
            .transmitFollowUp(
                FollowUpRequest(
                    localInstanceID: message.localInstanceID,
                    peerAddress: peer,
                    peerInstanceID: message.peerInstanceID,
                    serviceInfo: bare ? nil : configuration.keyExchangeServiceInfo[message.localInstanceID],
                    attributes: attributes
                )
            )
        )
        report(.nikExchanged(peer: peer, pairedDevices: records.count))
    }
}
