import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

extension AccessoryPairing {
    /// A PASN Authentication frame for us: frame 1 opens a pairing or a verification, later
    /// frames go to the exchange under way with that phone.
    func pasnFrameReceived(_ frame: ReceivedFrame) {
        let peer = frame.transmitter
        guard case .pasnAuthentication(let pasn) = frame.frame.body else { return }
        let body = pasn.wireBytes
        if var run = responders[peer], !run.machine.isFinished {
            if pasn.transactionSequence == 3 {
                if faults.contains(.ignorePASNAbort), pasn.statusCode != PASNStatusCode.success { return }
                if !faults.contains(.noReplayCheck), !firstSighting(body) {
                    replayRejected(peer, frame: 3)
                    return
                }
            } else if pasn.transactionSequence == 1, body != run.frame1Body {
                // A new frame 1 while an exchange runs: the phone started over. The running
                // exchange ends (a spent guess if our confirm was out) and the new one starts.
                if faults.contains(.ignorePASNAbort) { return }
                let actions = run.machine.handle(.abort, now: now, rng: &random)
                responders[peer] = run
                perform(actions, peer: peer)
            }
            if responders[peer].map({ !$0.machine.isFinished }) == true {
                let actions = run.machine.handle(.received(frame), now: now, rng: &random)
                responders[peer] = run
                perform(actions, peer: peer)
                return
            }
        }
        guard let summary = PASNFrame1Summary(frame, ownAddress: address) else {
            if pasn.transactionSequence == 3, !faults.contains(.noReplayCheck), !firstSighting(body) {
                replayRejected(peer, frame: 3)
            }
            return
        }
        if !faults.contains(.noReplayCheck), !firstSighting(summary.body) {
            replayRejected(peer, frame: 1)
            return
        }
        let csid = summary.cipherSuiteIDs.first(where: offeredSuites.contains) ?? offeredSuites.first ?? 7
        var configuration = PASNConfiguration(
            ownAddress: address,
            peerAddress: peer,
            address3: frame.frame.header.address3,
            suite: NANSecurityCipherSuite(rawValue: csid) ?? .ncsPKPASN128,
            channel: device.homeChannel
        )
        let credential: PASNCredential
        if summary.isVerification {
            guard let resolved = verificationCredential(for: summary) else {
                emit(
                    "verification_failed",
                    [("peer", .string(peer.description)), ("reason", .string("no-cached-keys"))],
                    "\(peer) asked to verify a pairing we do not have"
                )
                device.transmitFrame(
                    PASNResponder.rejection(status: PASNStatusCode.invalidPMKID, configuration: configuration)
                )
                return
            }
            credential = .cachedKey(resolved)
            configuration.nanAttributes = [
                csia(csid),
                .identityResolution(
                    IdentityResolutionAttribute(nonce: resolved.ownNPKID.nonce, tag: resolved.ownNPKID.tag)
                ),
            ]
        } else {
            configuration.nanAttributes = [csia(csid), dcea]
            if let request = bootstrap.agreement(with: peer)?.request {
                configuration.nanAttributes.append(.pairingBootstrapping(request))
            }
            guard let pin = setupPIN(for: peer, configuration: configuration) else { return }
            credential = .password(Array(pin.utf8))
        }
        emit(
            "pairing_started",
            [
                ("peer", .string(peer.description)),
                ("kind", .string(summary.isVerification ? "verification" : "setup")),
            ],
            summary.isVerification ? "\(peer) verifies its pairing" : "\(peer) pairs"
        )
        var machine = PASNResponder(configuration: configuration, credential: credential)
        let actions = machine.handle(.frame1(frame, nil), now: now, rng: &random)
        responders[peer] = ResponderRun(
            machine: machine,
            frame1Body: summary.body,
            timer: nil,
            channel: frame.info.channel,
            guessSpent: machine.confirmSent
        )
        perform(actions, peer: peer)
    }

    /// The PIN for a pairing setup from `peer`, or nil after refusing it: pairing needs a
    /// bootstrapping that showed a PIN, and is refused while locked (status 37).
    private func setupPIN(for peer: MACAddress, configuration: PASNConfiguration) -> String? {
        if case .lockedOut = limiter.check(at: now), !faults.contains(.noLockout) {
            emit(
                "pairing_rejected",
                [("peer", .string(peer.description)), ("reason", .string("locked-out"))],
                "refused \(peer): locked"
            )
            device.transmitFrame(
                PASNResponder.rejection(status: PASNStatusCode.requestDeclined, configuration: configuration)
            )
            return nil
        }
        let accepted = bootstrap.agreement(with: peer) != nil
        if let pin = pins[peer], accepted {
            return faults.contains(.wrongPINInSAE) ? Self.otherPIN(pin.digits) : pin.digits
        }
        if faults.contains(.pasnWithoutBootstrap) { return pins[peer]?.digits ?? lastPIN?.digits ?? "000000" }
        emit(
            "pairing_rejected",
            [("peer", .string(peer.description)), ("reason", .string("not-bootstrapped"))],
            "refused \(peer): no PIN was shown for it"
        )
        device.transmitFrame(
            PASNResponder.rejection(status: PASNStatusCode.requestDeclined, configuration: configuration)
        )
        return nil
    }

    /// A PIN that differs from `digits` in its last digit.
    static func otherPIN(_ digits: String) -> String {
        guard let last = digits.last?.wholeNumberValue else { return digits + "0" }
        return String(digits.dropLast()) + String((last + 1) % 10)
    }

    /// The cached key whose NIK resolves the phone's NPKID with its NMI (3.7), with a fresh
    /// NPKID of ours.
    private func verificationCredential(for summary: PASNFrame1Summary) -> PASNCachedKey? {
        guard cachesKeys, !faults.contains(.noVerification), let npkid = summary.npkid else { return nil }
        let nowUnix = Int64(Date().timeIntervalSince1970)
        guard
            let record = records.first(where: { record in
                guard let nik = record.peerNIK, record.nikIsValid(at: nowUnix) else { return false }
                return npkid.matches(nik: nik, nmi: summary.initiator.octets)
            })
        else { return nil }
        let nonce = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
        guard let own = try? NPKID(nik: ownNIK, nmi: address.octets, nonce: nonce) else { return nil }
        return PASNCachedKey(npk: record.npk, akm: record.akm, ownNPKID: own, peerNIK: nil)
    }

    func csia(_ csid: UInt8) -> NANAttribute {
        .cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [CipherSuite(csid: CipherSuiteID(csid), instanceID: localInstanceID)]
            )
        )
    }

    var dcea: NANAttribute {
        .deviceCapabilityExtension(
            DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: cachesKeys)
        )
    }

    private func replayRejected(_ peer: MACAddress, frame: Int) {
        emit(
            "replay_rejected",
            [("peer", .string(peer.description)), ("frame", .unsigned(UInt64(frame)))],
            "ignored a replayed PASN frame \(frame) from \(peer)"
        )
    }

    func perform(_ actions: [PASNAction], peer: MACAddress) {
        for action in actions {
            switch action {
            case .transmit(let request):
                device.transmitFrame(request)
            case .armTimer(let instant):
                if let timer = responders[peer]?.timer { device.scheduler.cancel(timer) }
                responders[peer]?.timer = device.scheduler.schedule(at: instant) { [weak self] in
                    guard let self, var run = self.responders[peer] else { return }
                    run.timer = nil
                    let actions = run.machine.handle(.timerFired, now: self.now, rng: &self.random)
                    self.responders[peer] = run
                    self.perform(actions, peer: peer)
                }
            case .cancelTimer:
                if let timer = responders[peer]?.timer { device.scheduler.cancel(timer) }
                responders[peer]?.timer = nil
            case .notify(.frameSent):
                break
            case .notify(.completed(let result)):
                completed(result, peer: peer)
            case .notify(.failed(let failure)):
                failed(failure, peer: peer)
            }
        }
    }

    private func completed(_ result: PASNResult, peer: MACAddress) {
        pins[peer] = nil
        // The ND-PMK of this pairing (or verification) secures the peer's data paths (3.5, 4.2).
        dataPathKeys[peer] = (result.ndPMK, result.suite)
        run(bootstrap.handle(.forget(peer: peer), now: now, rng: &random))
        if !faults.contains(.noFrameProtection) {
            device.installPairwiseKey(
                peer: peer,
                key: result.tk,
                cipher: result.suite == .ncsPKPASN256 ? .gcmp256 : .ccmp128
            )
        }
        if result.isVerification {
            if let index = records.firstIndex(where: { $0.npk == result.npk }), records[index].peerNMI != peer {
                let old = records[index].peerNMI
                records[index].peerNMI = peer
                persist(records[index])
                forget(old)
            }
            emit(
                "reconnected",
                [("peer", .string(peer.description))],
                "\(peer) reconnected with its cached keys, no PIN"
            )
            return
        }
        limiter.recordSuccess()
        sessions[peer] = result
        emit(
            "paired",
            [
                ("peer", .string(peer.description)), ("cipherSuite", .unsigned(UInt64(result.suite.csid))),
                ("keyCaching", .bool(cachesKeys && result.peerCachesKeys)),
            ],
            "paired with \(peer)"
        )
    }

    /// Drops what we keep for `old`, an NMI the phone no longer uses: it came back under a new
    /// one and verified the same pairing (phones change NMI between connections). Without this
    /// every NMI change leaves its NM-TK, ND-PMK and finished PASN exchange behind for good.
    private func forget(_ old: MACAddress) {
        if let timer = responders.removeValue(forKey: old)?.timer { device.scheduler.cancel(timer) }
        dataPathKeys[old] = nil
        sessions[old] = nil
        pins[old] = nil
        device.removePairwiseKey(peer: old)
    }

    private func failed(_ failure: PASNFailure, peer: MACAddress) {
        // Once our SAE confirm went out, the phone has tested a PIN: an attempt that does not
        // complete counts, however it ends (frame 3 wrong, aborted, or never sent).
        let spentGuess = responders[peer]?.guessSpent ?? false
        if responders[peer]?.machine.credential.isVerification == true {
            if faults.contains(.skipFrame3MIC), failure == .micMismatch(frame: 3) {
                emit(
                    "reconnected",
                    [("peer", .string(peer.description))],
                    "\(peer) reconnected with its cached keys, no PIN"
                )
                return
            }
            emit(
                "verification_failed",
                [("peer", .string(peer.description)), ("reason", .string(failure.reason))],
                "verification with \(peer) failed: \(failure)"
            )
            return
        }
        if keepsBootstrap != peer {
            pins[peer] = nil
            run(bootstrap.handle(.forget(peer: peer), now: now, rng: &random))
        }
        var fields: [(String, JSONValue)] = [("peer", .string(peer.description)), ("reason", .string(failure.reason))]
        guard spentGuess, !faults.contains(.noLockout) else {
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure)")
            return
        }
        switch limiter.recordFailure(at: now) {
        case .allowed(let remaining):
            fields.append(("remainingAttempts", .unsigned(UInt64(remaining))))
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure); \(remaining) attempts left")
        case .lockedOut(let until, let duration):
            fields.append(("remainingAttempts", .unsigned(0)))
            emit("pairing_failed", fields, "pairing with \(peer) failed: \(failure)")
            emit(
                "pairing_locked",
                [("seconds", .double(duration.seconds)), ("until", .double(until.seconds))],
                "pairing locked for \(Int(duration.seconds)) s after wrong PINs"
            )
            if let unlockWork { device.scheduler.cancel(unlockWork) }
            unlockWork = device.scheduler.schedule(at: until) { [weak self] in
                self?.emit("pairing_unlocked", [], "pairing unlocked")
            }
        }
    }
}
