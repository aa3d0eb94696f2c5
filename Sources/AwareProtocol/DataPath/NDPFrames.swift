import AwareCore
import AwareCrypto
import AwareWire

/// Building data path NAFs (nan-wire-reference.md 1.1, 1.3, 4.1).
enum NDPFrames {
    /// FC `D0 00`, A1 = peer NMI, A2 = own NMI, A3 = Cluster ID (1.3: "NAF: A3 = Cluster ID").
    static func mpdu(_ frame: NANActionFrame, to peer: MACAddress, from own: MACAddress, cluster: MACAddress) -> [UInt8]
    {
        let header = ManagementHeader(
            frameControl: .management(.action),
            address1: peer,
            address2: own,
            address3: cluster
        )
        return IEEE80211Frame.management(ManagementFrame(header: header, body: .nanAction(frame))).wireBytes
    }

    /// The NDP or NDPE attribute for `common` (2.10). `serviceInfo` (the service's transport)
    /// goes in an NDPE Service Info TLV; in an NDP attribute the same TLV goes in the NDP
    /// Specific Info, where Android's firmware puts it (DataPathServiceInfo.swift; not settled by
    /// a specification clause we can cite).
    static func ndpAttribute(
        _ common: NDPCommonFields,
        extended: Bool,
        interfaceIdentifier: [UInt8]?,
        serviceInfo: GenericServiceProtocol? = nil
    ) -> NANAttribute {
        guard extended else {
            return .ndp(NDPAttribute(common: common, ndpSpecificInfo: serviceInfo?.ndpExtensionTLV.wireBytes))
        }
        var tlvs = interfaceIdentifier.map { [NDPExtensionTLV.ipv6LinkLocal(interfaceIdentifier: $0)] } ?? []
        if let serviceInfo { tlvs.append(serviceInfo.ndpExtensionTLV) }
        return .ndpExtension(NDPExtensionAttribute(common: common, tlvs: tlvs))
    }

    /// CSIA with one suite and SCIA with one ND-PMKID, both for the publish instance (2.13, 2.14).
    static func securityContext(suite: NANSecurityCipherSuite, pmkid: [UInt8], publishID: UInt8) -> [NANAttribute] {
        [
            .cipherSuiteInfo(
                CipherSuiteInfoAttribute(
                    capabilities: CipherSuiteCapabilities(rawValue: 0),
                    cipherSuites: [CipherSuite(csid: CipherSuiteID(suite.csid), instanceID: publishID)]
                )
            ),
            .securityContextInfo(
                SecurityContextInfoAttribute(identifiers: [.ndPMKID(pmkid, publishID: publishID)])
            ),
        ]
    }

    static func availability(
        committed: NDPSchedule,
        potential: NDPSchedule,
        style: NDPAvailabilityStyle
    ) -> NANAttribute {
        .availability(
            AvailabilityAttribute(
                sequenceID: style.sequenceID,
                mapID: 0,
                committedChanged: true,
                potentialChanged: true,
                entries: [committed.entry(.committed, style: style), potential.entry(.potential, style: style)]
            )
        )
    }

    /// The NDL attribute; its dialog token is the NDP's (hostap, session A frame 22). NDL
    /// Control b2 says an NDC attribute comes with it, b3 an NDL QoS attribute (2.9).
    static func ndl(
        dialogToken: UInt8,
        type: NDLType,
        status: DataPathStatus,
        reason: NANReasonCode = .reserved,
        ndcPresent: Bool = false,
        qosPresent: Bool
    ) -> NANAttribute {
        .ndl(
            NDLAttribute(
                dialogToken: dialogToken,
                type: type,
                status: status,
                reasonCode: reason,
                ndlControl: (ndcPresent ? 0x04 : 0) | (qosPresent ? 0x08 : 0)
            )
        )
    }

    /// Fills the Key MIC of the frame's Shared Key Descriptor with `mic(body with MIC zeroed)`
    /// (4.2). The frame is built with a zero MIC of the suite's length.
    static func signed(_ frame: NANActionFrame, mic: ([UInt8]) -> [UInt8]?) -> NANActionFrame? {
        guard let value = mic(frame.wireBytes) else { return nil }
        var signed = frame
        signed.attributes = frame.attributes.map { attribute in
            guard case .sharedKeyDescriptor(var sharedKey) = attribute else { return attribute }
            sharedKey.keyDescriptor.mic = value
            return .sharedKeyDescriptor(sharedKey)
        }
        return signed
    }
}
