import AwareCore
import AwareCrypto
import AwareWire

extension NDPResponder {
    /// The policy, in order (nan-wire-reference.md 4.1, 4.2): a device serving as many peers as
    /// it can refuses another (RESOURCE_LIMITATION, 2.11); the publish ID names a service;
    /// security (SECURITY_POLICY on refusal); the performance mode (QoS_UNACCEPTABLE); the
    /// schedule (accept the intersection, counter-propose our own, or INVALID_AVAILABILITY).
    mutating func respond(to message: NDPMessage, now: Instant) -> [NDPAction] {
        if let limit = configuration.policy.peerLimitReached {
            return reject(NDPFailure(.peerLimit(limit), reason: .resourceLimitation))
        }
        guard let publishID = message.common.publishID else {
            return reject(NDPFailure(.malformed("the request has no Publish ID"), reason: .invalidParameters))
        }
        guard let serviceID = configuration.serviceIDs[publishID] else {
            return reject(NDPFailure(.unknownPublishID(publishID), reason: .ndpRejected))
        }
        let keys: Keys?
        switch security(message, serviceID: serviceID) {
        case .success(let value): keys = value
        case .failure(let failure): return reject(failure)
        }
        let requested = PerformanceMode(ndlQoS: message.qos)
        if let expected = configuration.policy.expectedMode, expected != requested,
            !configuration.policy.toleratesModeMismatch
        {
            let failure = NDPFailure(.modeMismatch(expected: expected, requested: requested), reason: .qosUnacceptable)
            return reject(failure)
        }
        let own = configuration.availability
        let proposal: NDPSchedule?
        switch self.proposal(in: message) {
        case .unreadable: return reject(NDPFailure(.scheduleUnacceptable, reason: .invalidAvailability), ndl: true)
        case .elsewhere: proposal = nil
        case .onOurChannel(let schedule): proposal = schedule
        }
        // The NDL QoS minimum (2.9) counts the common slots of the first 512 TU, as hostap's
        // nan_ndl_determine_status does: a long-period proposal may be thinner in later periods.
        let needed = NDLScheduleDecision.neededSlots(minimumSlots: configuration.minimumSlots, qos: message.qos)
        let decision = NDLScheduleDecision(
            own: own,
            proposal: proposal,
            needed: needed,
            maximumBandwidthMHz: configuration.maximumBandwidthMHz,
            counterProposes: configuration.policy.counterProposes
        )
        switch decision {
        case .accept(let agreed):
            return accept(message, keys: keys, agreed: agreed, counterProposal: false, now: now)
        case .counterPropose(let agreed):
            return accept(message, keys: keys, agreed: agreed, counterProposal: true, now: now)
        case .reject:
            return reject(NDPFailure(.scheduleUnacceptable, reason: .invalidAvailability), ndl: true)
        }
    }

    /// The part of the requester's availability on our data channel (2.7): its committed and
    /// conditional entries across every map, on the primary channel we use.
    private func proposal(in message: NDPMessage) -> Proposal {
        let policy = configuration.policy
        let attributes = policy.readsEveryMap ? message.availabilities : Array(message.availabilities.prefix(1))
        let kinds: Set<AvailabilityEntryKind> =
            policy.schedulesInConditional ? [.committed, .conditional] : [.committed]
        guard !attributes.isEmpty, let schedules = NDPSchedule.schedules(in: attributes, kinds: kinds),
            !schedules.isEmpty
        else { return .unreadable }
        guard let onOurs = schedules.first(where: { $0.channel.number == configuration.availability.channel.number })
        else { return .elsewhere }
        guard !policy.keepsLongPeriods, onOurs.periodSlots > NDPSchedule.slotsPerPeriod else {
            return .onOurChannel(onOurs)
        }
        // The fault: every slot any repetition holds is taken as held in every 512 TU.
        let folded = Set(onOurs.slots.map { $0 % NDPSchedule.slotsPerPeriod })
        return .onOurChannel(
            NDPSchedule(channel: onOurs.channel, slots: Array(folded), bandwidthMHz: onOurs.bandwidthMHz)
        )
    }

    private enum Proposal {
        /// No NAN Availability, none with a committed or conditional slot, or one that cannot be read.
        case unreadable
        /// Slots on other channels only.
        case elsewhere
        case onOurChannel(NDPSchedule)
    }

    /// Security Present -> one allowed CSID, a credential for the peer whose ND-PMKID is the
    /// one in the SCIA, and a well-formed m1 (4.2). Without it -> refused if required.
    private func security(_ message: NDPMessage, serviceID: ServiceID) -> Result<Keys?, NDPFailure> {
        let policy = configuration.policy
        guard message.securityPresent else {
            return policy.requiresSecurity ? .failure(NDPFailure(.openRefused, reason: .securityPolicy)) : .success(nil)
        }
        guard let csid = message.requestedCSID else {
            return .failure(
                NDPFailure(.malformed("Security Present without a data path CSID"), reason: .securityPolicy)
            )
        }
        guard let suite = NANSecurityCipherSuite(rawValue: csid), policy.allowedSuites.contains(suite) else {
            return .failure(NDPFailure(.suiteNotAllowed(csid: csid), reason: .securityPolicy))
        }
        let noCredential = NDPFailure(.noCredential, reason: .securityPolicy)
        guard let credential = configuration.credentials[request.peerNMI] ?? configuration.defaultCredential,
            credential.serves(suite)
        else { return .failure(noCredential) }
        guard let m1 = message.keyDescriptor(suite: suite), NDPKeyMessage.m1.matches(m1) else {
            return .failure(
                NDPFailure(.malformed("message 1 is missing or not a message 1"), reason: .invalidParameters)
            )
        }
        do throws(KeyDerivationError) {
            let pmk = try credential.pmk(suite: suite, serviceID: serviceID, publisherNMI: configuration.localNMI)
            let pmkid = try NDPMK.pmkid(
                pmk: pmk,
                initiatorNMI: request.peerNMI.octets,
                responderNMI: configuration.localNMI.octets,
                serviceID: serviceID.octets,
                suite: suite
            )
            let offered = message.securityContext?.ndPMKIDs ?? []
            guard offered.contains(where: { ConstantTime.equals($0, pmkid) }) || !configuration.policy.checksPMKID
            else { return .failure(noCredential) }
            let ptk = try NDPPTK.derive(
                pmk: pmk,
                initiatorNDI: request.initiatorNDI.octets,
                responderNDI: configuration.localNDI.octets,
                iNonce: m1.nonce,
                rNonce: nonce,
                suite: suite
            )
            return .success(
                Keys(suite: suite, pmkid: pmkid, ptk: ptk, iNonce: m1.nonce, replayCounter: m1.replayCounter)
            )
        } catch {
            return .failure(NDPFailure(.internalError("\(error)"), reason: .unspecifiedReason))
        }
    }

    /// Response Continued when a Confirm must follow (security, Confirm Required, or a
    /// counter-proposal), Accepted otherwise (4.1).
    private mutating func accept(
        _ message: NDPMessage,
        keys: Keys?,
        agreed: NDPSchedule,
        counterProposal: Bool,
        now: Instant
    ) -> [NDPAction] {
        let ndc = selectNDC(message, agreed: agreed)
        let countering = counterProposal || ndc.counters
        let confirmNeeded = keys != nil || message.common.ndpControl.contains(.confirmRequired) || countering
        let availability = NDPFrames.availability(
            committed: agreed,
            potential: configuration.availability,
            style: configuration.availabilityStyle
        )
        guard
            let response = responseFrame(
                status: confirmNeeded ? .continued : .accepted,
                keys: keys,
                availability: availability,
                ndc: ndc.selected,
                ndlStatus: countering ? .continued : .accepted,
                qos: configuration.qos
            )
        else { return reject(NDPFailure(.internalError("the m2 MIC could not be computed"))) }
        let link = NDPLink(
            ndpID: request.ndpID,
            initiatorNDI: request.initiatorNDI,
            responderNDI: configuration.localNDI,
            peerNMI: request.peerNMI,
            publishID: request.publishID,
            isInitiator: false,
            security: keys?.suite,
            tk: keys?.ptk.tk ?? [],
            schedule: agreed,
            peerInterfaceIdentifier: message.interfaceIdentifier,
            peerQoS: message.qos,
            ndc: ndc.selected
        )
        let responseMPDU = mpdu(response)
        guard confirmNeeded else {
            state = .established(link, answered: nil)
            return [.transmit(responseMPDU), .notify(.established(link))]
        }
        state = .awaitingConfirm(
            Accepted(
                link: link,
                responseMPDU: responseMPDU,
                availability: availability,
                keys: keys,
                counterProposal: countering
            )
        )
        return [.transmit(responseMPDU), .arm(.awaitingConfirm, at: now + configuration.retransmission.interval)]
    }

    /// The NDC an accepting response selects (2.8). A request that proposes one keeps its NDC ID;
    /// its schedule is taken when the agreed schedule holds it, else ours replaces it and the NDL
    /// becomes a counter-proposal (hostap answers a proposed NDC it does not share with NDL
    /// Continued). Without a proposal: one slot of the agreed schedule under our own ID.
    private func selectNDC(_ message: NDPMessage, agreed: NDPSchedule) -> (selected: NDCSchedule?, counters: Bool) {
        guard configuration.policy.selectsNDC else { return (nil, false) }
        let ownID = configuration.ndcID ?? NDCSchedule.identifier(random: Array(nonce.suffix(6)))
        guard let attribute = message.ndcs.first, configuration.policy.honoursProposedNDC else {
            return (NDCSchedule(selectingFrom: agreed, id: ownID), false)
        }
        if let proposed = NDCSchedule(attribute, channel: agreed.channel), agreed.contains(proposed.schedule) {
            return (proposed, false)
        }
        return (NDCSchedule(selectingFrom: agreed, id: attribute.ndcID), true)
    }

    /// Response Rejected with the failure's reason (and an NDL Rejected for schedule reasons).
    private mutating func reject(_ failure: NDPFailure, ndl: Bool = false) -> [NDPAction] {
        state = .finished
        let reason = failure.reason ?? .unspecifiedReason
        return [.transmit(mpdu(rejectionFrame(reason: reason, ndl: ndl))), .notify(.failed(failure))]
    }
}
