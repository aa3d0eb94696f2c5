import AwareCore
import AwareCrypto
import AwareWire

extension NDPInitiator {
    /// The Data Path Response (4.1, 4.2): Rejected ends the exchange; otherwise check m2 (Key
    /// Info, replay counter, ND-PMKID, MIC), then the schedule: NDL Accepted means the
    /// responder's committed availability is the agreed schedule, NDL Continued is a
    /// counter-proposal we take only if it fits what we can do.
    mutating func response(_ message: NDPMessage, pending: Pending, now: Instant) -> [NDPAction] {
        let common = message.common
        guard common.type == .response, common.dialogToken == configuration.dialogToken else { return [] }
        if common.status == .rejected {
            state = .finished
            let reason = common.reasonCode
            return [.cancel(.awaitingResponse), .notify(.failed(NDPFailure(.rejectedByPeer(reason), reason: reason)))]
        }
        guard let responderNDI = common.responderNDI else {
            return fail(.malformed("the Data Path Response has no Responder NDI"))
        }
        var pending = pending
        if var keys = pending.keys {
            switch verifyM2(message, keys: keys, responderNDI: responderNDI) {
            case .success(let (ptk, rNonce)):
                keys.ptk = ptk
                keys.rNonce = rNonce
                pending.keys = keys
            case .failure(let failure):
                state = .finished
                return [.cancel(.awaitingResponse), .notify(.failed(failure))]
            }
        } else if message.securityPresent {
            return fail(.malformed("a secure Data Path Response to an open request"))
        }

        let offered = committedSchedule(in: message)
        let ndlStatus = message.ndl?.status ?? .accepted
        let counterProposal = ndlStatus == .continued
        let agreed: NDPSchedule
        switch ndlStatus {
        case .rejected:
            let reason = message.ndl?.reasonCode ?? .ndlUnacceptable
            state = .finished
            return [.cancel(.awaitingResponse), .notify(.failed(NDPFailure(.rejectedByPeer(reason), reason: reason)))]
        case .continued:
            let minimum = NDLScheduleDecision.neededSlots(minimumSlots: 1, qos: configuration.qos)
            guard let offered, configuration.capability.contains(offered), offered.slotsInFirstBlock >= minimum
            else {
                return refuseCounterProposal(pending: pending, offered: offered)
            }
            agreed = offered
        default:
            // An accepted schedule we cannot keep is refused like a counter-proposal.
            if let offered, !configuration.capability.contains(offered) {
                return refuseCounterProposal(pending: pending, offered: offered)
            }
            agreed = offered ?? configuration.proposal
        }

        // The Selected NDC (2.8) must lie in the responder's own committed availability, as hostap
        // requires of a peer's NDC; a response without one is taken (the conformance suite
        // judges it), and the link records what was selected.
        let ndc = message.selectedNDC.flatMap { NDCSchedule($0, channel: agreed.channel) }
        if let ndc, let offered, !offered.contains(ndc.schedule) {
            return refuseCounterProposal(pending: pending, offered: offered)
        }
        let link = NDPLink(
            ndpID: configuration.ndpID,
            initiatorNDI: configuration.localNDI,
            responderNDI: responderNDI,
            peerNMI: configuration.peerNMI,
            publishID: configuration.publishID,
            isInitiator: true,
            security: pending.keys?.suite,
            tk: pending.keys?.ptk?.tk ?? [],
            schedule: agreed,
            peerInterfaceIdentifier: message.interfaceIdentifier,
            peerQoS: message.qos,
            ndc: ndc,
            peerServiceInfo: message.serviceInfo
        )
        let secure = pending.keys != nil
        guard secure || common.status == .continued || counterProposal else {
            state = .established(link)
            return [.cancel(.awaitingResponse), .notify(.established(link))]
        }
        let status: DataPathStatus = secure ? .continued : .accepted
        guard
            let confirm = confirmFrame(
                status: status,
                agreed: agreed,
                ndc: ndc,
                counterProposal: counterProposal,
                pending: pending
            )
        else { return fail(.internalError("the m3 MIC could not be computed")) }
        let confirmMPDU = mpdu(confirm)
        guard secure else {
            state = .established(link)
            return [.cancel(.awaitingResponse), .transmit(confirmMPDU), .notify(.established(link))]
        }
        pending.transmissions = 1
        state = .awaitingKeyInstall(pending, confirm: confirmMPDU, link: link)
        return [
            .cancel(.awaitingResponse), .transmit(confirmMPDU),
            .arm(.awaitingKeyInstall, at: now + configuration.retransmission.interval),
        ]
    }

    /// The responder's committed schedule (2.7), from every NAN Availability of the response: on
    /// our proposal's channel, else on the channel of what we could do, else its first.
    private func committedSchedule(in message: NDPMessage) -> NDPSchedule? {
        guard let schedules = NDPSchedule.schedules(in: message.availabilities, kinds: [.committed]) else { return nil }
        return schedules.first { $0.channel.number == configuration.proposal.channel.number }
            ?? schedules.first { $0.channel.number == configuration.capability.channel.number } ?? schedules.first
    }

    /// m2 (4.2): Key Info 0x0108, the replay counter of m1, RNonce; the ND-PMKID, if sent,
    /// must be ours; the MIC covers the body with the MIC zeroed.
    private func verifyM2(
        _ message: NDPMessage,
        keys: Keys,
        responderNDI: MACAddress
    ) -> Result<(NDPPTK, [UInt8]), NDPFailure> {
        guard message.securityPresent, let m2 = message.keyDescriptor(suite: keys.suite),
            NDPKeyMessage.m2.matches(m2), m2.replayCounter == configuration.replayCounter,
            let zeroed = message.bodyWithMICZeroed(suite: keys.suite)
        else { return .failure(NDPFailure(.malformed("message 2 is missing or not a message 2"))) }
        if let csid = message.requestedCSID, csid != keys.suite.csid {
            return .failure(NDPFailure(.suiteNotAllowed(csid: csid)))
        }
        if let pmkids = message.securityContext?.ndPMKIDs, !pmkids.isEmpty,
            !pmkids.contains(where: { ConstantTime.equals($0, keys.pmkid) })
        {
            return .failure(NDPFailure(.pmkidMismatch))
        }
        do throws(KeyDerivationError) {
            let ptk = try NDPPTK.derive(
                pmk: keys.pmk,
                initiatorNDI: configuration.localNDI.octets,
                responderNDI: responderNDI.octets,
                iNonce: nonce,
                rNonce: m2.nonce,
                suite: keys.suite
            )
            try NDPKeyDescriptorMIC.verify(m2.mic, ptk: ptk, bodyWithMICZeroed: zeroed)
            return .success((ptk, m2.nonce))
        } catch {
            return .failure(NDPFailure(.micMismatch(message: 2)))
        }
    }

    /// The counter-proposal does not fit (4.1 NDL negotiation): Confirm Rejected with
    /// NDL_UNACCEPTABLE, or INVALID_AVAILABILITY when the response carried no usable schedule.
    private mutating func refuseCounterProposal(pending: Pending, offered: NDPSchedule?) -> [NDPAction] {
        let reason: NANReasonCode = offered == nil ? .invalidAvailability : .ndlUnacceptable
        state = .finished
        var actions: [NDPAction] = [.cancel(.awaitingResponse)]
        if let confirm = confirmFrame(
            status: .rejected,
            reason: reason,
            agreed: configuration.proposal,
            counterProposal: true,
            pending: pending
        ) {
            actions.append(.transmit(mpdu(confirm)))
        }
        actions.append(.notify(.failed(NDPFailure(.scheduleUnacceptable, reason: reason))))
        return actions
    }

    /// The Data Path Key Installment (4.1, 4.2): status Accepted, m4 with Key Info 0x0348, the
    /// replay counter of m3 and RNonce, MIC over the body.
    mutating func keyInstallment(_ message: NDPMessage, pending: Pending, link: NDPLink) -> [NDPAction] {
        let common = message.common
        guard common.type == .securityInstall, common.dialogToken == configuration.dialogToken,
            let keys = pending.keys, let ptk = keys.ptk
        else { return [] }
        if common.status == .rejected {
            state = .finished
            let reason = common.reasonCode
            return [
                .cancel(.awaitingKeyInstall), .notify(.failed(NDPFailure(.rejectedByPeer(reason), reason: reason))),
            ]
        }
        guard common.status == .accepted, let m4 = message.keyDescriptor(suite: keys.suite),
            NDPKeyMessage.m4.matches(m4), m4.replayCounter == configuration.replayCounter &+ 1,
            m4.nonce == keys.rNonce, let zeroed = message.bodyWithMICZeroed(suite: keys.suite)
        else {
            state = .finished
            let failure = NDPFailure(.malformed("message 4 is missing or not a message 4"))
            return [.cancel(.awaitingKeyInstall), .notify(.failed(failure))]
        }
        do throws(KeyDerivationError) {
            try NDPKeyDescriptorMIC.verify(m4.mic, ptk: ptk, bodyWithMICZeroed: zeroed)
        } catch {
            state = .finished
            return [.cancel(.awaitingKeyInstall), .notify(.failed(NDPFailure(.micMismatch(message: 4))))]
        }
        state = .established(link)
        return [.cancel(.awaitingKeyInstall), .notify(.established(link))]
    }

    private mutating func fail(_ kind: NDPFailure.Kind) -> [NDPAction] {
        state = .finished
        return [.cancel(.awaitingResponse), .notify(.failed(NDPFailure(kind)))]
    }
}
