import AwareCore
import AwareCrypto
import AwareWire

extension NDPResponder {
    /// Data Path Response (4.1): NDP(E) type Response with the Responder NDI and the published
    /// service's transport (``NDPResponderConfiguration/transportInfo``); CSIA + SCIA +
    /// SKDA m2 when secure; our Availability (committed = the agreed or counter-proposed
    /// schedule); the Selected NDC (2.8); NDL Response; the request's NDL QoS echoed (hostap's
    /// order, session A frame 23).
    func responseFrame(
        status: DataPathStatus,
        keys: Keys?,
        availability: NANAttribute,
        ndc: NDCSchedule?,
        ndlStatus: DataPathStatus,
        qos: NDLQoSAttribute?
    ) -> NANActionFrame? {
        var attributes = configuration.leadingAttributes
        attributes.append(
            ndpAttribute(
                type: .response,
                status: status,
                control: keys == nil ? [] : .securityPresent,
                responderNDI: configuration.localNDI,
                interfaceIdentifier: configuration.interfaceIdentifier,
                serviceInfo: configuration.transportInfo[request.publishID]
            )
        )
        if let keys {
            // The SCIA of m2 repeats the ND-PMKID we matched (hostap, session A frame 23).
            attributes += NDPFrames.securityContext(suite: keys.suite, pmkid: keys.pmkid, publishID: request.publishID)
            let m2 = NDPKeyMessage.m2.descriptor(nonce: nonce, replayCounter: keys.replayCounter, suite: keys.suite)
            attributes.append(
                .sharedKeyDescriptor(SharedKeyDescriptorAttribute(publishID: request.publishID, keyDescriptor: m2))
            )
        }
        attributes.append(availability)
        if let ndc { attributes.append(.ndc(ndc.attribute())) }
        attributes.append(
            NDPFrames.ndl(
                dialogToken: request.dialogToken,
                type: .response,
                status: ndlStatus,
                ndcPresent: ndc != nil,
                qosPresent: qos != nil
            )
        )
        if let qos { attributes.append(.ndlQoS(qos)) }
        if let container = configuration.elementContainer { attributes.append(.elementContainer(container)) }
        let frame = NANActionFrame(category: request.category, subtype: .dataPathResponse, attributes: attributes)
        guard let keys else { return frame }
        return NDPFrames.signed(frame) { body in NDPKeyDescriptorMIC.mic(ptk: keys.ptk, bodyWithMICZeroed: body) }
    }

    /// Data Path Key Installment (4.1): type Security Install, status Accepted, SKDA m4 with
    /// the replay counter of m3 and RNonce, our Availability again (as hostap, frame 25).
    func keyInstallFrame(keys: Keys, replayCounter: UInt64, accepted: Accepted) -> NANActionFrame? {
        var attributes = configuration.leadingAttributes
        attributes.append(ndpAttribute(type: .securityInstall, status: .accepted, control: .securityPresent))
        let m4 = NDPKeyMessage.m4.descriptor(nonce: nonce, replayCounter: replayCounter, suite: keys.suite)
        attributes.append(
            .sharedKeyDescriptor(SharedKeyDescriptorAttribute(publishID: request.publishID, keyDescriptor: m4))
        )
        attributes.append(accepted.availability)
        let frame = NANActionFrame(
            category: request.category,
            subtype: .dataPathKeyInstallment,
            attributes: attributes
        )
        return NDPFrames.signed(frame) { body in NDPKeyDescriptorMIC.mic(ptk: keys.ptk, bodyWithMICZeroed: body) }
    }

    /// Data Path Response Rejected with `reason` and no Responder NDI (2.10); an NDL Response
    /// Rejected too when the schedule is the reason.
    func rejectionFrame(reason: NANReasonCode, ndl: Bool) -> NANActionFrame {
        var attributes = configuration.leadingAttributes
        // The Responder NDI goes in a rejection too, with its control bit: the field's presence
        // is the bit's to say (nan-wire-reference.md 2.10), and Wireshark reads it in every
        // Response whatever the status, so a rejection without it decodes as malformed there.
        attributes.append(
            ndpAttribute(
                type: .response,
                status: .rejected,
                reason: reason,
                control: .responderNDIPresent,
                responderNDI: configuration.localNDI
            )
        )
        if ndl {
            attributes.append(
                NDPFrames.ndl(
                    dialogToken: request.dialogToken,
                    type: .response,
                    status: .rejected,
                    reason: reason,
                    qosPresent: false
                )
            )
        }
        return NANActionFrame(category: request.category, subtype: .dataPathResponse, attributes: attributes)
    }

    func terminationFrame(reason: NANReasonCode) -> NANActionFrame {
        var attributes = configuration.leadingAttributes
        attributes.append(ndpAttribute(type: .terminate, status: .accepted, reason: reason, control: []))
        return NANActionFrame(category: request.category, subtype: .dataPathTermination, attributes: attributes)
    }

    private func ndpAttribute(
        type: NDPType,
        status: DataPathStatus,
        reason: NANReasonCode = .reserved,
        control: NDPControl,
        responderNDI: MACAddress? = nil,
        interfaceIdentifier: [UInt8]? = nil,
        serviceInfo: GenericServiceProtocol? = nil
    ) -> NANAttribute {
        let common = NDPCommonFields(
            dialogToken: request.dialogToken,
            type: type,
            status: status,
            reasonCode: reason,
            initiatorNDI: request.initiatorNDI,
            ndpID: request.ndpID,
            ndpControl: control,
            responderNDI: responderNDI
        )
        return NDPFrames.ndpAttribute(
            common,
            extended: request.extended,
            interfaceIdentifier: interfaceIdentifier,
            serviceInfo: serviceInfo
        )
    }
}
