import AwareCrypto
import AwareWire

extension NDPInitiator {
    /// Data Path Request (4.1): NDP(E) type Request, status Continued, Publish ID, Confirm
    /// Required when asked or secure; CSIA + SCIA + SKDA m1 when secure; the proposal as NAN
    /// Availability (committed + potential); NDL Request Continued; NDL QoS if configured.
    func requestFrame(keys: Keys?) -> NANActionFrame {
        var control: NDPControl = []
        if configuration.confirmRequired || keys != nil { control.insert(.confirmRequired) }
        if keys != nil { control.insert(.securityPresent) }
        var attributes = configuration.leadingAttributes
        attributes.append(
            ndpAttribute(type: .request, status: .continued, control: control, publishID: configuration.publishID)
        )
        if let keys {
            attributes += NDPFrames.securityContext(
                suite: keys.suite,
                pmkid: keys.pmkid,
                publishID: configuration.publishID
            )
            let m1 = NDPKeyMessage.m1.descriptor(
                nonce: nonce,
                replayCounter: configuration.replayCounter,
                suite: keys.suite
            )
            attributes.append(
                .sharedKeyDescriptor(
                    SharedKeyDescriptorAttribute(publishID: configuration.publishID, keyDescriptor: m1)
                )
            )
        }
        if let shaped = configuration.proposalAttributes {
            attributes += shaped.map { .availability($0) }
        } else {
            attributes.append(availability(committed: configuration.proposal))
        }
        if let ndc = configuration.proposedNDC { attributes.append(.ndc(ndc.attribute())) }
        attributes.append(
            NDPFrames.ndl(
                dialogToken: configuration.dialogToken,
                type: .request,
                status: .continued,
                ndcPresent: configuration.proposedNDC != nil,
                qosPresent: configuration.qos != nil
            )
        )
        if let qos = configuration.qos { attributes.append(.ndlQoS(qos)) }
        if let container = configuration.elementContainer { attributes.append(.elementContainer(container)) }
        return NANActionFrame(category: configuration.category, subtype: .dataPathRequest, attributes: attributes)
    }

    /// Data Path Confirm (4.1): status Continued when secure (hostap refuses Accepted then),
    /// Accepted when open, Rejected with `reason`; SKDA m3; our committed availability = the
    /// agreed schedule; NDL Confirm only when answering a counter-proposal, then with the
    /// responder's Selected NDC repeated (2.8; hostap copies the peer's NDC into its Confirm).
    func confirmFrame(
        status: DataPathStatus,
        reason: NANReasonCode = .reserved,
        agreed: NDPSchedule,
        ndc: NDCSchedule? = nil,
        counterProposal: Bool,
        pending: Pending
    ) -> NANActionFrame? {
        let secure = pending.keys != nil
        var attributes = configuration.leadingAttributes
        attributes.append(
            ndpAttribute(type: .confirm, status: status, reason: reason, control: secure ? .securityPresent : [])
        )
        if let keys = pending.keys, status != .rejected {
            let m3 = NDPKeyMessage.m3.descriptor(
                nonce: nonce,
                replayCounter: configuration.replayCounter &+ 1,
                suite: keys.suite
            )
            attributes.append(
                .sharedKeyDescriptor(
                    SharedKeyDescriptorAttribute(publishID: configuration.publishID, keyDescriptor: m3)
                )
            )
        }
        var committed = agreed
        committed.startOffset = configuration.proposal.startOffset % UInt16(agreed.periodSlots)
        attributes.append(availability(committed: committed))
        if counterProposal {
            let selected = status == .rejected ? nil : ndc
            if let selected { attributes.append(.ndc(selected.attribute())) }
            attributes.append(
                NDPFrames.ndl(
                    dialogToken: configuration.dialogToken,
                    type: .confirm,
                    status: status == .rejected ? .rejected : .accepted,
                    reason: reason,
                    ndcPresent: selected != nil,
                    qosPresent: false
                )
            )
        }
        let frame = NANActionFrame(
            category: configuration.category,
            subtype: .dataPathConfirm,
            attributes: attributes
        )
        guard let keys = pending.keys, let ptk = keys.ptk, status != .rejected else { return frame }
        let authToken = NDPKeyDescriptorMIC.authToken(m1Body: pending.requestBody, suite: keys.suite)
        return NDPFrames.signed(frame) { body in
            try? NDPKeyDescriptorMIC.m3MIC(ptk: ptk, authToken: authToken, bodyWithMICZeroed: body)
        }
    }

    /// Data Path Termination (4.1: NDP type 4), with the reason.
    func terminationFrame(reason: NANReasonCode) -> NANActionFrame {
        var attributes = configuration.leadingAttributes
        attributes.append(ndpAttribute(type: .terminate, status: .accepted, reason: reason, control: []))
        return NANActionFrame(
            category: configuration.category,
            subtype: .dataPathTermination,
            attributes: attributes
        )
    }

    private func ndpAttribute(
        type: NDPType,
        status: DataPathStatus,
        reason: NANReasonCode = .reserved,
        control: NDPControl,
        publishID: UInt8? = nil
    ) -> NANAttribute {
        let common = NDPCommonFields(
            dialogToken: configuration.dialogToken,
            type: type,
            status: status,
            reasonCode: reason,
            initiatorNDI: configuration.localNDI,
            ndpID: configuration.ndpID,
            ndpControl: control,
            publishID: publishID
        )
        return NDPFrames.ndpAttribute(
            common,
            extended: configuration.usesNDPE,
            interfaceIdentifier: type == .request ? configuration.interfaceIdentifier : nil
        )
    }

    private func availability(committed: NDPSchedule) -> NANAttribute {
        NDPFrames.availability(
            committed: committed,
            potential: configuration.capability,
            style: configuration.availabilityStyle
        )
    }
}
