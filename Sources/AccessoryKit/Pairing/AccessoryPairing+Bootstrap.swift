import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

extension AccessoryPairing {
    /// A Follow-up to one of our publishes: a bootstrapping request, or a paired phone's NIK.
    func followUpReceived(_ message: FollowUpMessage) {
        localInstanceID = message.localInstanceID
        if message.attributes.contains(where: { if case .sharedKeyDescriptor = $0 { true } else { false } }) {
            nikReceived(message)
            return
        }
        let edited = Self.applyBootstrapFaults(
            message,
            offered: bootstrap.configuration.offered,
            faults: faults,
            sessions: bootstrap.sessions
        )
        run(bootstrap.handle(.received(edited), now: now, rng: &random))
    }

    /// Faults that make the accessory accept what it must refuse, applied to the request before
    /// the (correct) machine sees it.
    static func applyBootstrapFaults(
        _ message: FollowUpMessage,
        offered: BootstrappingMethods,
        faults: Set<AccessoryFault>,
        sessions: [MACAddress: BootstrapSession]
    ) -> FollowUpMessage {
        guard faults.contains(.acceptAnyBootstrapMethod) || faults.contains(.acceptWrongCookie) else { return message }
        var edited = message
        edited.attributes = message.attributes.map { attribute in
            guard case .pairingBootstrapping(var npba) = attribute, npba.type == .request else { return attribute }
            if faults.contains(.acceptAnyBootstrapMethod), !offered.contains(npba.methods.complement) {
                npba.methods = offered.complement.isSingleMethod ? offered.complement : .pinCodeKeypad
            }
            if faults.contains(.acceptWrongCookie), npba.status == .comeback,
                case .authorized(let cookie) = sessions[message.peerAddress]?.phase
            {
                npba.cookie = cookie
            }
            return .pairingBootstrapping(npba)
        }
        return edited
    }

    func run(_ actions: [BootstrapResponderAction]) {
        for action in actions {
            switch action {
            case .transmit(let request):
                device.perform(.transmitFollowUp(request))
            case .arm(let timer, let instant):
                if let previous = bootstrapTimers[timer] { device.scheduler.cancel(previous) }
                bootstrapTimers[timer] = device.scheduler.schedule(at: instant) { [weak self] in
                    guard let self else { return }
                    self.bootstrapTimers[timer] = nil
                    self.run(self.bootstrap.handle(.timerFired(timer), now: self.now, rng: &self.random))
                }
            case .cancel(let timer):
                if let work = bootstrapTimers.removeValue(forKey: timer) { device.scheduler.cancel(work) }
            case .notify(let notification):
                handle(notification)
            }
        }
    }

    private func handle(_ notification: BootstrapResponderNotification) {
        switch notification {
        case .authorizationRequested(let peer, _, let method):
            emit(
                "bootstrap_requested",
                [("peer", .string(peer.description)), ("method", .unsigned(UInt64(method.rawValue)))],
                "\(peer) asks to pair"
            )
            endAbandonedPairing(with: peer)
            decide(for: peer)
        case .accepted(let peer, _):
            emit("bootstrap_accepted", [("peer", .string(peer.description))], "bootstrapping with \(peer) accepted")
        case .methodNotOffered(let peer, let requested):
            emit(
                "bootstrap_rejected",
                [
                    ("peer", .string(peer.description)), ("reason", .string("method-not-offered")),
                    ("requested", .unsigned(UInt64(requested.rawValue))),
                ],
                "refused \(peer): bootstrapping method 0x\(String(requested.rawValue, radix: 16)) is not offered"
            )
        case .invalidComeback(let peer):
            pins[peer] = nil
            emit(
                "bootstrap_rejected",
                [("peer", .string(peer.description)), ("reason", .string("invalid-comeback"))],
                "refused \(peer): its comeback request does not match"
            )
        case .sessionExpired(let peer):
            pins[peer] = nil
        }
    }

    /// A phone that asks to bootstrap again has given up the pairing attempt still running here
    /// (its frame 3 was lost, or refused): that attempt ends now, as the phone ended it, and a
    /// guess it spent still counts. Left to its timer, it would end a second later and take the
    /// new bootstrapping down with it, so the phone's comeback would be refused (reason 13).
    func endAbandonedPairing(with peer: MACAddress) {
        // Firmware that ignores the phone's abort (the fault) keeps the attempt to its timeout.
        guard var run = responders[peer], !run.machine.isFinished, !run.machine.credential.isVerification,
            !faults.contains(.ignorePASNAbort)
        else { return }
        keepsBootstrap = peer
        defer { keepsBootstrap = nil }
        let actions = run.machine.handle(.abort, now: now, rng: &random)
        responders[peer] = run
        perform(actions, peer: peer)
    }

    /// Shows a fresh PIN and lets the phone come back for it, unless pairing is locked after
    /// wrong PINs (reason 8, SECURITY_POLICY) or the store is full (reason 2,
    /// RESOURCE_LIMITATION) (nan-wire-reference.md 2.11).
    private func decide(for peer: MACAddress) {
        if case .lockedOut(let until) = limiter.check(at: now), !faults.contains(.noLockout) {
            reject(
                peer,
                reasonCode: 8,
                reason: "locked-out",
                detail: "pairing is locked for \((until - now).seconds) s"
            )
            return
        }
        let known = records.contains { $0.peerNMI == peer }
        if !known, records.count >= settings.maxPairedDevices, !faults.contains(.noPairingLimit) {
            reject(
                peer,
                reasonCode: 2,
                reason: "paired-device-limit",
                detail: "already paired with \(records.count) of \(settings.maxPairedDevices) devices"
            )
            return
        }
        let pin: PINCode
        if faults.contains(.reusePIN), let lastPIN {
            pin = lastPIN
        } else if let drawn = drawPIN() {
            pin = drawn
        } else {
            reject(peer, reasonCode: 1, reason: "no-pin", detail: "the PIN could not be drawn")
            return
        }
        pins[peer] = pin
        lastPIN = pin
        display(PINDisplay(pin: pin, peer: peer, accessory: address, pairingName: pairingName, time: now))
        var fields: [(String, JSONValue)] = [
            ("peer", .string(peer.description)), ("digits", .unsigned(UInt64(pin.length))),
        ]
        if faults.contains(.logPIN) { fields.append(("pin", .string(pin.digits))) }
        emit("pin_shown", fields, "showing a \(pin.length)-digit PIN for \(peer)")
        run(bootstrap.handle(.decide(peer: peer, .authorize), now: now, rng: &random))
    }

    private func drawPIN() -> PINCode? {
        if let fixed = settings.pin.fixed { return try? PINCode(fixed: fixed) }
        switch pinSource {
        case .systemRandom: return try? PINCode(length: settings.pin.length)
        case .seeded: return try? PINCode(length: settings.pin.length, using: &random)
        }
    }

    private func reject(_ peer: MACAddress, reasonCode: UInt8, reason: String, detail: String) {
        emit(
            "bootstrap_rejected",
            [
                ("peer", .string(peer.description)), ("reason", .string(reason)),
                ("reasonCode", .unsigned(UInt64(reasonCode))),
            ],
            "refused \(peer): \(detail)"
        )
        run(bootstrap.handle(.decide(peer: peer, .reject(reasonCode: reasonCode)), now: now, rng: &random))
    }
}
