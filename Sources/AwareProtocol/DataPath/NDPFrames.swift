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

/// The Availability entry fields that are preferences rather than schedule (2.7). The
/// defaults are the values hostap writes (session A frames 22-25: committed control 0x11E0,
/// potential control 0x07FA), so a bench exchange can be compared with the recording byte for
/// byte; no receiver here reads them.
public struct NDPAvailabilityStyle: Hashable, Sendable {
    public var sequenceID: UInt8
    public var committedUtilization: UInt8 = 7
    public var committedRxNSS: UInt8 = 1
    public var potentialUsagePreference: UInt8 = 3
    public var potentialUtilization: UInt8 = 7
    public var potentialRxNSS: UInt8 = 7

    public init(sequenceID: UInt8 = 0) {
        self.sequenceID = sequenceID
    }
}

extension ElementContainerAttribute {
    /// HT Capabilities element ID (IEEE 802.11-2020 9.4.2.55).
    public static let htCapabilitiesElementID: UInt8 = 45
    /// VHT Capabilities element ID (IEEE 802.11-2020 9.4.2.157).
    public static let vhtCapabilitiesElementID: UInt8 = 191

    /// The bench's radio in the Element Container of its Data Path Request and Response, as hostap
    /// sends it there (`nan_ndl_add_elem_container_attr`, Map ID octet 0): hostap configures the
    /// peer's station from the HT Capabilities it finds (`wpas_nan_configure_nmi_sta_capa`) and,
    /// when there are none, tears the new data path down without a Termination.
    ///
    /// One spatial stream, 20/40 MHz HT and 80 MHz VHT, short guard intervals, MCS 0-7 (HT) and
    /// 0-9 (VHT): the radio of a small accessory, and no more than the schedules here offer.
    public static let benchCapabilities = ElementContainerAttribute(
        mapID: nil,
        elements: [
            InformationElement(id: htCapabilitiesElementID, body: htCapabilities),
            InformationElement(id: vhtCapabilitiesElementID, body: vhtCapabilities),
        ]
    )

    /// 26 octets (9.4.2.55.1): HT Capability Information 0x006E (b1 20/40 MHz, b2-3 SM Power Save
    /// disabled, b5 and b6 short GI for 20 and 40 MHz), A-MPDU Parameters 0x03 (65,535 octets, no
    /// spacing restriction), Supported MCS Set with Rx MCS 0-7 and b96 Tx MCS Set Defined, then
    /// zero HT Extended, Transmit Beamforming and ASEL capabilities.
    static let htCapabilities: [UInt8] =
        [0x6E, 0x00, 0x03] + [0xFF] + [UInt8](repeating: 0, count: 9) + [0x00, 0x00] + [0x01, 0x00, 0x00, 0x00]
        + [0x00, 0x00] + [0x00, 0x00, 0x00, 0x00] + [0x00]

    /// 12 octets (9.4.2.157): VHT Capabilities Information 0x00000020 (3,895-octet MPDUs, 80 MHz,
    /// b5 short GI for 80 MHz), Rx and Tx VHT-MCS Maps 0xFFFE (one stream, MCS 0-9), no highest
    /// rates given.
    static let vhtCapabilities: [UInt8] = [0x20, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00]

    /// The HT Capabilities element's body, when the container holds one of 26 octets.
    public var htCapabilitiesBody: [UInt8]? {
        elements.first { $0.id == Self.htCapabilitiesElementID && $0.body.count == 26 }?.body
    }
}

/// The parts of a received data path NAF the machines read (nan-wire-reference.md 4.1): the
/// NDP or NDPE attribute, the security attributes and the schedule attributes.
struct NDPMessage {
    let frame: NANActionFrame
    let common: NDPCommonFields
    let interfaceIdentifier: [UInt8]?
    /// The sender's service transport: NDPE Service Info, or NDP Specific Info read as NDPE
    /// TLVs (Android's placement, DataPathServiceInfo.swift).
    let serviceInfo: GenericServiceProtocol?
    let isExtension: Bool
    let cipherSuites: CipherSuiteInfoAttribute?
    let securityContext: SecurityContextInfoAttribute?
    let sharedKey: SharedKeyDescriptorAttribute?
    let availability: AvailabilityAttribute?
    /// Every NAN Availability attribute of the frame, in order: one per Map ID (2.7).
    let availabilities: [AvailabilityAttribute]
    let ndl: NDLAttribute?
    let qos: NDLQoSAttribute?
    /// The sender's Device Capability (2.6), when the NAF carries one.
    let deviceCapability: DeviceCapabilityAttribute?
    /// Every NDC attribute of the frame (2.8), in order.
    let ndcs: [NDCAttribute]

    /// nil when the frame carries neither NDP nor NDPE; a frame with both is read by its first.
    init?(_ frame: NANActionFrame) {
        var common: NDPCommonFields?
        var interfaceIdentifier: [UInt8]?
        var serviceInfo: GenericServiceProtocol?
        var isExtension = false
        var cipherSuites: CipherSuiteInfoAttribute?
        var securityContext: SecurityContextInfoAttribute?
        var sharedKey: SharedKeyDescriptorAttribute?
        var availabilities: [AvailabilityAttribute] = []
        var ndl: NDLAttribute?
        var qos: NDLQoSAttribute?
        var deviceCapability: DeviceCapabilityAttribute?
        var ndcs: [NDCAttribute] = []
        for attribute in frame.attributes {
            switch attribute {
            case .ndp(let ndp) where common == nil:
                common = ndp.common
                serviceInfo = ndp.genericServiceProtocol
            case .ndpExtension(let ndpe) where common == nil:
                common = ndpe.common
                interfaceIdentifier = ndpe.ipv6InterfaceIdentifier
                serviceInfo = ndpe.genericServiceProtocol
                isExtension = true
            case .cipherSuiteInfo(let value) where cipherSuites == nil: cipherSuites = value
            case .securityContextInfo(let value) where securityContext == nil: securityContext = value
            case .sharedKeyDescriptor(let value) where sharedKey == nil: sharedKey = value
            case .availability(let value): availabilities.append(value)
            case .ndl(let value) where ndl == nil: ndl = value
            case .ndlQoS(let value) where qos == nil: qos = value
            case .deviceCapability(let value) where deviceCapability == nil: deviceCapability = value
            case .ndc(let value): ndcs.append(value)
            default: continue
            }
        }
        guard let common else { return nil }
        self.frame = frame
        self.common = common
        self.interfaceIdentifier = interfaceIdentifier
        self.serviceInfo = serviceInfo
        self.isExtension = isExtension
        self.cipherSuites = cipherSuites
        self.securityContext = securityContext
        self.sharedKey = sharedKey
        self.availability = availabilities.first
        self.availabilities = availabilities
        self.ndl = ndl
        self.qos = qos
        self.deviceCapability = deviceCapability
        self.ndcs = ndcs
    }

    /// The Selected NDC (2.8): the first NDC attribute with the Selected NDC bit and at least
    /// one schedule entry, which is what hostap takes from an NDL Response.
    var selectedNDC: NDCAttribute? {
        ndcs.first { $0.isSelected && !$0.scheduleEntries.isEmpty }
    }

    /// Whether the sender reads NDPE: its Device Capability says so (b3, 2.6), or, when the NAF
    /// carries none, it wrote NDPE itself.
    var senderReadsNDPE: Bool { deviceCapability?.ndpeAttributeSupported ?? isExtension }

    var securityPresent: Bool { common.ndpControl.contains(.securityPresent) }

    /// The NAF body from the Category octet, as sent (parse and write are byte-exact).
    var body: [UInt8] { frame.wireBytes }

    /// The key descriptor read with the suite's MIC length, not the guessed one (2.15).
    func keyDescriptor(suite: NANSecurityCipherSuite) -> RSNAKeyDescriptor? {
        guard let sharedKey else { return nil }
        var writer = WireWriter()
        sharedKey.write(to: &writer)
        var reader = WireReader(writer.bytes, structure: SharedKeyDescriptorAttribute.structureName)
        do throws(WireError) {
            let attribute = try SharedKeyDescriptorAttribute(from: &reader, micLayout: suite.keyMICLayout)
            try reader.expectEnd()
            return attribute.keyDescriptor
        } catch {
            return nil
        }
    }

    /// The body with the Key MIC zeroed, as the MIC is computed (4.2).
    func bodyWithMICZeroed(suite: NANSecurityCipherSuite) -> [UInt8]? {
        guard let sharedKey, var descriptor = keyDescriptor(suite: suite) else { return nil }
        descriptor.mic = [UInt8](repeating: 0, count: suite.micLength)
        var zeroed = frame
        zeroed.attributes = frame.attributes.map { attribute in
            guard case .sharedKeyDescriptor = attribute else { return attribute }
            return .sharedKeyDescriptor(
                SharedKeyDescriptorAttribute(publishID: sharedKey.publishID, keyDescriptor: descriptor)
            )
        }
        return zeroed.wireBytes
    }

    /// The first NDP cipher suite of the CSIA (CSID 1, 2, 7 or 8; the group suites 5 / 6 are
    /// not a data path suite, 4.2), as its raw CSID.
    var requestedCSID: UInt8? {
        let ndpSuites: Set<UInt8> = [1, 2, 3, 4, 7, 8]
        return cipherSuites?.cipherSuites.map(\.csid.rawValue).first { ndpSuites.contains($0) }
    }
}
