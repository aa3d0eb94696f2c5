import AwareCore
import AwareWire

/// Well-formed frames of every kind AwareBench decodes, built with the typed API: the seed of
/// robustness runs (``FrameMutator``) and the subject of decode benchmarks.
///
/// Pure data, no I/O: the values are fixed, so a corpus built today is the corpus built
/// tomorrow and a mutator seed reproduces a run bit for bit. The hostap session capture
/// (Fixtures/hostap-session-A) is read by the callers and added to ``frames`` there.
public enum FrameCorpus {
    /// The accessory's NMI and the phone's, as in the hostap session (nan-wire-reference.md 1.3).
    static let accessory = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    static let phone = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    static let accessoryNDI = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x01, 0x01)
    static let phoneNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x01, 0x02)
    static let clusterID = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x4F, 0x2A)
    static let droneService = ServiceID(serviceName: "_drone-service._udp")
    static let matchingFilter = MatchingFilter(items: [Array("drone".utf8), [], Array("v2".utf8)])

    /// Every frame of the corpus, each a whole 802.11 frame without FCS.
    public static var frames: [[UInt8]] { values.map(\.wireBytes) }

    /// The corpus as values, in a fixed order.
    public static var values: [IEEE80211Frame] {
        [
            .management(representativePublish),
            subscribeWithAddressListSRF,
            subscribeWithBloomSRF,
            followUpBootstrappingRequest,
            followUpBootstrappingComeback,
            dataPathRequest,
            dataPathResponse,
            dataPathConfirm,
            scheduleRequest,
            syncBeacon,
            discoveryBeacon,
            pasnFrame1,
            pasnFrame1Retry,
            pasnFrame2,
            pasnFrame2Comeback,
            pasnFrame3,
            protectedFollowUp,
            probeRequest,
            qosDataFrame,
        ]
    }

    /// An unsolicited publish of `_drone-service._udp` the way the accessory sends it
    /// (docs/reference/architecture.md, "Data through the system" step 1): SDA with a matching filter, SDEA
    /// carrying the DNS-SD TXT record (vendorName, modelName, pairingName), DCEA, NPBA
    /// advertising PIN display, Device Capability and NIRA.
    public static var representativePublishSDF: [UInt8] { representativePublish.wireBytes }

    static var representativePublish: ManagementFrame {
        let txt = DNSSDTXTRecord([
            (key: "vendorName", value: "Example Drones"),
            (key: "modelName", value: "Skylark 2"),
            (key: "pairingName", value: "Skylark-4F2A"),
        ])
        return sdf(
            to: .nanNetworkID,
            attributes: [
                .serviceDescriptor(
                    ServiceDescriptorAttribute(
                        serviceID: droneService,
                        instanceID: 1,
                        type: .publish,
                        matchingFilter: matchingFilter
                    )
                ),
                .serviceDescriptorExtension(
                    ServiceDescriptorExtensionAttribute(
                        instanceID: 1,
                        control: [.dataPathRequired, .securityRequired],
                        serviceInfo: .structured(ServiceSpecificInfo(bonjour: txt))
                    )
                ),
                .deviceCapabilityExtension(
                    DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: true)
                ),
                .pairingBootstrapping(
                    PairingBootstrappingAttribute(
                        dialogToken: 0,
                        type: .advertise,
                        status: .accepted,
                        methods: [.opportunistic, .pinCodeDisplay]
                    )
                ),
                .deviceCapability(deviceCapability),
                .identityResolution(
                    IdentityResolutionAttribute(
                        nonce: [0x3C, 0x91, 0x0A, 0x57, 0xE2, 0x44, 0x18, 0xD6],
                        tag: [0x9F, 0x21, 0x6B, 0x80, 0x0D, 0xC3, 0x72, 0x5E]
                    )
                ),
            ]
        )
    }

    static let deviceCapability = DeviceCapabilityAttribute(
        committedDWInfo: 0x0009,
        supportedBands: 0x14,
        operationMode: 0x01,
        numberOfAntennas: 0x22,
        maxChannelSwitchTime: 5_000,
        capabilities: 0x08
    )

    static var subscribeWithAddressListSRF: IEEE80211Frame {
        .management(
            sdf(
                from: phone,
                to: .nanNetworkID,
                attributes: [
                    .serviceDescriptor(
                        ServiceDescriptorAttribute(
                            serviceID: droneService,
                            instanceID: 2,
                            type: .subscribe,
                            matchingFilter: matchingFilter,
                            serviceResponseFilter: ServiceResponseFilter(
                                include: true,
                                addressSet: .addressList([accessory, MACAddress(0x02, 0xA0, 0, 0, 0, 0x07)])
                            )
                        )
                    )
                ]
            )
        )
    }

    static var subscribeWithBloomSRF: IEEE80211Frame {
        .management(
            sdf(
                from: phone,
                to: .nanNetworkID,
                attributes: [
                    .serviceDescriptor(
                        ServiceDescriptorAttribute(
                            serviceID: droneService,
                            instanceID: 3,
                            type: .subscribe,
                            bindingBitmap: 0x0001,
                            matchingFilter: matchingFilter,
                            serviceResponseFilter: .bloom(addresses: [accessory], index: 2, length: 16, include: true),
                            serviceInfo: Array("scan".utf8)
                        )
                    ),
                    .subscribeServiceIDList(SubscribeServiceIDListAttribute(serviceIDs: [droneService])),
                ]
            )
        )
    }

    /// The phone asks for PIN keypad bootstrapping (nan-wire-reference.md 3.2).
    static var followUpBootstrappingRequest: IEEE80211Frame {
        .management(
            sdf(
                from: phone,
                to: accessory,
                attributes: [
                    .serviceDescriptor(
                        ServiceDescriptorAttribute(
                            serviceID: droneService,
                            instanceID: 2,
                            requestorInstanceID: 1,
                            type: .followUp
                        )
                    ),
                    .pairingBootstrapping(
                        PairingBootstrappingAttribute(
                            dialogToken: 1,
                            type: .request,
                            status: .accepted,
                            methods: .pinCodeKeypad
                        )
                    ),
                ]
            )
        )
    }

    /// The accessory answers "come back" while it shows the PIN (nan-wire-reference.md 3.2).
    static var followUpBootstrappingComeback: IEEE80211Frame {
        .management(
            sdf(
                to: phone,
                attributes: [
                    .serviceDescriptor(
                        ServiceDescriptorAttribute(
                            serviceID: droneService,
                            instanceID: 1,
                            requestorInstanceID: 2,
                            type: .followUp
                        )
                    ),
                    .serviceDescriptorExtension(
                        ServiceDescriptorExtensionAttribute(
                            instanceID: 1,
                            rangeLimit: ServiceRangeLimit(ingress: 0, egress: 300),
                            serviceUpdateIndicator: 4
                        )
                    ),
                    .pairingBootstrapping(
                        PairingBootstrappingAttribute(
                            dialogToken: 1,
                            type: .response,
                            status: .comeback,
                            comebackAfter: 100,
                            cookie: [0xC0, 0x0C, 0x1E, 0x55],
                            methods: .pinCodeKeypad
                        )
                    ),
                ]
            )
        )
    }

    static let committedSchedule = TimeBitmap(
        control: TimeBitmapControl(bitDuration: .tu16, period: .tu512, startOffset: 0),
        bitmap: [0xFE, 0xFF, 0xFE, 0xFF]
    )

    static var availability: AvailabilityAttribute {
        AvailabilityAttribute(
            sequenceID: 0x16,
            mapID: 0,
            committedChanged: true,
            potentialChanged: true,
            entries: [
                AvailabilityEntry(
                    committed: true,
                    utilization: 7,
                    rxNSS: 1,
                    timeBitmap: committedSchedule,
                    bandChannelEntries: BandChannelEntries(channels: [
                        ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)
                    ])
                ),
                AvailabilityEntry(
                    potential: true,
                    usagePreference: 3,
                    bandChannelEntries: BandChannelEntries(bands: [.band2_4GHz, .band5GHz])
                ),
            ]
        )
    }

    static var cipherSuiteInfo: CipherSuiteInfoAttribute {
        CipherSuiteInfoAttribute(
            capabilities: CipherSuiteCapabilities(rawValue: 0),
            cipherSuites: [CipherSuite(csid: .ncsPKPASN128, instanceID: 1)]
        )
    }

    static func keyDescriptor(
        _ information: UInt16,
        counter: UInt64,
        nonce: UInt8,
        keyData: [UInt8] = []
    )
        -> SharedKeyDescriptorAttribute
    {
        SharedKeyDescriptorAttribute(
            publishID: 1,
            keyDescriptor: RSNAKeyDescriptor(
                keyInformation: EAPOLKeyInformation(rawValue: information),
                replayCounter: counter,
                nonce: (0..<32).map { UInt8(truncatingIfNeeded: Int(nonce) &+ $0 &* 7) },
                micLayout: .octets16,
                mic: [UInt8](repeating: information == 0x0088 ? 0 : 0x5A, count: 16),
                keyData: keyData
            )
        )
    }

    /// Data Path Request (m1): NDP, availability, NDL, NDL QoS and the security attributes
    /// (nan-wire-reference.md 4.1, 4.2).
    static var dataPathRequest: IEEE80211Frame {
        .management(
            naf(
                from: phone,
                to: accessory,
                subtype: .dataPathRequest,
                attributes: [
                    .deviceCapability(deviceCapability),
                    .ndp(
                        NDPAttribute(
                            dialogToken: 9,
                            type: .request,
                            status: .continued,
                            initiatorNDI: phoneNDI,
                            ndpID: 1,
                            ndpControl: [.confirmRequired, .securityPresent],
                            publishID: 1,
                            ndpSpecificInfo: [0x50, 0x6F, 0x9A, 0x02, 0x01]
                        )
                    ),
                    .availability(availability),
                    .ndl(NDLAttribute(dialogToken: 2, type: .request, status: .continued, ndlControl: 0x08)),
                    .ndlQoS(NDLQoSAttribute(minimumTimeSlots: 12, maximumLatency: 3)),
                    .cipherSuiteInfo(cipherSuiteInfo),
                    .securityContextInfo(
                        SecurityContextInfoAttribute(identifiers: [
                            .ndPMKID((0..<16).map { UInt8($0) &* 17 }, publishID: 1)
                        ])
                    ),
                    .sharedKeyDescriptor(keyDescriptor(0x0088, counter: 1, nonce: 0xF1)),
                ]
            )
        )
    }

    /// Data Path Response (m2): NDPE with TLVs, NDC, NDL with an immutable schedule.
    static var dataPathResponse: IEEE80211Frame {
        .management(
            naf(
                to: phone,
                subtype: .dataPathResponse,
                attributes: [
                    .ndpExtension(
                        NDPExtensionAttribute(
                            dialogToken: 9,
                            type: .response,
                            status: .continued,
                            initiatorNDI: phoneNDI,
                            ndpID: 1,
                            ndpControl: [.confirmRequired, .securityPresent, .responderNDIPresent],
                            responderNDI: accessoryNDI,
                            tlvs: [
                                .ipv6LinkLocal(interfaceIdentifier: [0x00, 0xA0, 0x00, 0xFF, 0xFE, 0x00, 0x01, 0x01]),
                                // The service's transport as Android's publisher names it: port
                                // 7000, UDP (GenericServiceProtocol), so mutations reach its parser.
                                GenericServiceProtocol(transportPort: 7_000, transportProtocol: 17).ndpExtensionTLV,
                            ]
                        )
                    ),
                    .availability(availability),
                    .ndc(
                        NDCAttribute(
                            ndcID: MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x00, 0x01),
                            selected: true,
                            scheduleEntries: [ScheduleEntry(mapIDField: 0, timeBitmap: committedSchedule)]
                        )
                    ),
                    .ndl(
                        NDLAttribute(
                            dialogToken: 2,
                            type: .response,
                            status: .accepted,
                            ndlControl: 0x04,
                            peerID: 1,
                            maxIdlePeriod: 10,
                            immutableSchedule: [ScheduleEntry(mapIDField: 0, timeBitmap: committedSchedule)]
                        )
                    ),
                    .elementContainer(
                        ElementContainerAttribute(
                            mapID: 0,
                            elements: [
                                InformationElement(id: 45, body: [0x6F, 0x00] + [UInt8](repeating: 0xFF, count: 2))
                            ]
                        )
                    ),
                    .cipherSuiteInfo(cipherSuiteInfo),
                    .sharedKeyDescriptor(keyDescriptor(0x01C8, counter: 1, nonce: 0x2B)),
                ]
            )
        )
    }

    /// Data Path Confirm (m3) with NDP and a key descriptor carrying key data.
    static var dataPathConfirm: IEEE80211Frame {
        .management(
            naf(
                from: phone,
                to: accessory,
                subtype: .dataPathConfirm,
                attributes: [
                    .ndp(
                        NDPAttribute(
                            dialogToken: 9,
                            type: .confirm,
                            status: .accepted,
                            initiatorNDI: phoneNDI,
                            ndpID: 1,
                            responderNDI: accessoryNDI
                        )
                    ),
                    .sharedKeyDescriptor(
                        keyDescriptor(0x13C8, counter: 2, nonce: 0x77, keyData: [0xDD, 0x04, 0x50, 0x6F, 0x9A, 0x1A])
                    ),
                ]
            )
        )
    }

    /// Schedule Request with an unaligned schedule, a vendor-specific and an unknown attribute.
    static var scheduleRequest: IEEE80211Frame {
        .management(
            naf(
                from: phone,
                to: accessory,
                subtype: .scheduleRequest,
                attributes: [
                    .availability(availability),
                    .ndl(
                        NDLAttribute(dialogToken: 3, type: .request, status: .continued, reasonCode: .unspecifiedReason)
                    ),
                    .unalignedSchedule(
                        UnalignedScheduleAttribute(
                            scheduleID: 1,
                            sequenceID: 2,
                            startingTime: 0x0012_3456,
                            duration: 2_048,
                            period: 0,
                            countDown: 3,
                            overwriteAll: false,
                            overwriteMapID: 1,
                            channel: UnalignedScheduleChannel(
                                target: .channel(
                                    ChannelEntry(operatingClass: 124, channelBitmap: 0x0002, primaryChannelBitmap: 0)
                                ),
                                channelAvailability: true,
                                rxNSS: 1
                            )
                        )
                    ),
                    .vendorSpecific(VendorSpecificAttribute(oui: [0x00, 0x17, 0xF2], body: [0x01, 0x02, 0x03])),
                    .unknown(id: NANAttributeID(0x1F), body: [0x00, 0x01]),
                ]
            )
        )
    }

    /// A NAN Sync Beacon: Master Indication and Cluster in the NAN element (1.4, 2.3).
    static var syncBeacon: IEEE80211Frame {
        .management(
            ManagementFrame(
                header: header(.beacon, from: accessory, to: .broadcast, bssid: clusterID, sequence: 40),
                body: .nanBeacon(
                    NANBeacon(
                        timestamp: 0x0000_0012_3456_7890,
                        beaconInterval: NANBeacon.syncBeaconInterval,
                        elements: [
                            .nan(
                                NANElement(attributes: [
                                    .masterIndication(
                                        MasterIndicationAttribute(masterPreference: 128, randomFactor: 37)
                                    ),
                                    .cluster(
                                        ClusterAttribute(
                                            anchorMasterRank: ClusterAttribute.masterRank(
                                                masterPreference: 128,
                                                randomFactor: 37,
                                                address: accessory
                                            ),
                                            hopCountToAnchorMaster: 0,
                                            anchorMasterBeaconTransmissionTime: 0
                                        )
                                    ),
                                ])
                            )
                        ]
                    )
                )
            )
        )
    }

    /// A Discovery Beacon that also carries non-NAN elements (kept raw).
    static var discoveryBeacon: IEEE80211Frame {
        .management(
            ManagementFrame(
                header: header(.beacon, from: accessory, to: .broadcast, bssid: clusterID, sequence: 41),
                body: .nanBeacon(
                    NANBeacon(
                        timestamp: 0x0000_0012_3456_9990,
                        beaconInterval: NANBeacon.discoveryBeaconInterval,
                        elements: [
                            .other(InformationElement(id: 1, body: [0x8C, 0x12, 0x98, 0x24])),
                            .nan(
                                NANElement(attributes: [
                                    .masterIndication(
                                        MasterIndicationAttribute(masterPreference: 128, randomFactor: 37)
                                    ),
                                    .serviceIDList(ServiceIDListAttribute(serviceIDs: [droneService])),
                                ])
                            ),
                        ]
                    )
                )
            )
        )
    }

    static let ephemeralKey = PASNEphemeralKey(group: 19, publicKey: [0x02] + (0..<32).map { UInt8($0) &* 29 &+ 3 })
    static let pmkid: [UInt8] = (0..<16).map { UInt8($0) &* 13 &+ 1 }

    /// An SAE Authentication body for group 21 (P-521), whose frame-2 wrapped data (284
    /// octets) needs a Fragment element (nan-wire-reference.md 3.4.1; ElementFragments).
    static func saeCommit(_ fill: UInt8) -> SAEAuthentication {
        SAEAuthentication(
            transactionSequence: 1,
            status: 0,
            message: .commit(
                SAECommit(
                    group: .p521,
                    scalar: (0..<66).map { UInt8(truncatingIfNeeded: $0 &+ Int(fill)) },
                    element: (0..<132).map { UInt8(truncatingIfNeeded: $0 &* 3 &+ Int(fill)) }
                )
            )
        )
    }

    static func saeConfirm(_ fill: UInt8) -> SAEAuthentication {
        SAEAuthentication(
            transactionSequence: 2,
            status: 0,
            message: .confirm(
                SAEConfirm(sendConfirm: 1, confirm: (0..<66).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ Int(fill)) })
            )
        )
    }

    static func wrapped(_ sae: PASNWrappedSAE) -> FrameElement {
        var writer = WireWriter(capacity: 300)
        sae.write(to: &writer)
        return .wrappedData(WrappedDataElement(data: writer.bytes))
    }

    static var pasnRSN: FrameElement {
        .rsn(.nanPairing(akm: .akmPASN, pairwise: .ccmp128, pmkid: nil))
    }

    static var pasnFrame1: IEEE80211Frame {
        pasn(
            from: phone,
            to: accessory,
            PASNAuthenticationFrame(
                transactionSequence: 1,
                elements: [
                    pasnRSN,
                    .rsnExtension(.saeHashToElement()),
                    .pasnParameters(PASNParametersElement(wrappedDataFormat: .sae, ephemeralKey: ephemeralKey)),
                    wrapped(.frame1(commit: saeCommit(0x11))),
                    .nan(NANElement(attributes: [.cipherSuiteInfo(cipherSuiteInfo)])),
                ]
            )
        )
    }

    /// Frame 1 again after a comeback, echoing the responder's cookie.
    static var pasnFrame1Retry: IEEE80211Frame {
        pasn(
            from: phone,
            to: accessory,
            PASNAuthenticationFrame(
                transactionSequence: 1,
                elements: [
                    pasnRSN,
                    .pasnParameters(
                        PASNParametersElement(
                            wrappedDataFormat: .sae,
                            comebackInfo: PASNComebackInfo(comebackAfter: nil, cookie: [0xAB, 0xCD, 0xEF]),
                            ephemeralKey: ephemeralKey
                        )
                    ),
                    wrapped(.frame1(commit: saeCommit(0x12))),
                ]
            )
        )
    }

    static var pasnFrame2: IEEE80211Frame {
        pasn(
            from: accessory,
            to: phone,
            PASNAuthenticationFrame(
                transactionSequence: 2,
                elements: [
                    .rsn(.nanPairing(akm: .akmPASN, pairwise: .ccmp128, pmkid: pmkid)),
                    wrapped(.frame2(commit: saeCommit(0x21), confirm: saeConfirm(0x22))),
                    .rsnExtension(.saeHashToElement()),
                    .pasnParameters(PASNParametersElement(wrappedDataFormat: .sae, ephemeralKey: ephemeralKey)),
                    .nan(NANElement(attributes: [.cipherSuiteInfo(cipherSuiteInfo)])),
                    .supportedGroups(SupportedGroupsElement(groups: [19, 20, 21])),
                    .mic(MICElement(mic: [UInt8](repeating: 0x3D, count: 16))!),
                ]
            )
        )
    }

    /// Frame 2 telling the initiator to come back later (status 30, with Comeback After).
    static var pasnFrame2Comeback: IEEE80211Frame {
        pasn(
            from: accessory,
            to: phone,
            PASNAuthenticationFrame(
                transactionSequence: 2,
                statusCode: 30,
                elements: [
                    .pasnParameters(
                        PASNParametersElement(
                            wrappedDataFormat: .noWrappedData,
                            comebackInfo: PASNComebackInfo(comebackAfter: 200, cookie: [0xAB, 0xCD, 0xEF])
                        )
                    ),
                    .other(InformationElement(id: 221, body: [0x00, 0x0F, 0xAC, 0x01])),
                ]
            )
        )
    }

    static var pasnFrame3: IEEE80211Frame {
        pasn(
            from: phone,
            to: accessory,
            PASNAuthenticationFrame(
                transactionSequence: 3,
                elements: [
                    wrapped(.frame3(confirm: saeConfirm(0x31))),
                    .pasnParameters(PASNParametersElement(wrappedDataFormat: .sae)),
                    .nan(NANElement(attributes: [])),
                    .mic(MICElement(mic: [UInt8](repeating: 0x6E, count: 24))!),
                ]
            )
        )
    }

    /// A follow-up after pairing: Protected bit set, body is ciphertext (3.8).
    static var protectedFollowUp: IEEE80211Frame {
        .management(
            ManagementFrame(
                header: header(.action, protected: true, from: accessory, to: phone, sequence: 60),
                body: .protected((0..<48).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            )
        )
    }

    static var probeRequest: IEEE80211Frame {
        .management(
            ManagementFrame(
                header: header(.probeRequest, from: phone, to: .broadcast, bssid: .broadcast, sequence: 7),
                body: .otherManagement([0x00, 0x00, 0x01, 0x04, 0x82, 0x84, 0x8B, 0x96])
            )
        )
    }

    /// A QoS Data frame on the data path, NDI to NDI, carrying an IPv6 header with No Next
    /// Header (59): what the application traffic looks like before it is encrypted.
    static var qosDataFrame: IEEE80211Frame {
        let linkLocal: [UInt8] = [0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0xB0, 0x00, 0xFF, 0xFE, 0x00, 0x01, 0x02]
        let allNodes: [UInt8] = [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01]
        let ipv6: [UInt8] = [0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 59, 255] + linkLocal + allNodes
        return .notManagement(
            frameControl: FrameControl(rawValue: 0x0088),
            rest: [0x2C, 0x00] + accessoryNDI.octets + phoneNDI.octets + MACAddress.nanNetworkID.octets
                + [0x10, 0x00, 0x00, 0x00] + [0xAA, 0xAA, 0x03, 0x00, 0x00, 0x00, 0x86, 0xDD] + ipv6
        )
    }

    static func header(
        _ subtype: ManagementSubtype,
        protected: Bool = false,
        from transmitter: MACAddress,
        to receiver: MACAddress,
        bssid: MACAddress = .nanNetworkID,
        sequence: UInt16
    ) -> ManagementHeader {
        ManagementHeader(
            frameControl: .management(subtype, protected: protected),
            address1: receiver,
            address2: transmitter,
            address3: bssid,
            sequenceControl: SequenceControl(sequenceNumber: sequence)
        )
    }

    static func sdf(
        from transmitter: MACAddress = accessory,
        to receiver: MACAddress,
        attributes: [NANAttribute]
    )
        -> ManagementFrame
    {
        ManagementFrame(
            header: header(.action, from: transmitter, to: receiver, sequence: 10),
            body: .serviceDiscovery(ServiceDiscoveryFrame(attributes: attributes))
        )
    }

    static func naf(
        from transmitter: MACAddress = accessory,
        to receiver: MACAddress,
        subtype: NAFSubtype,
        attributes: [NANAttribute]
    ) -> ManagementFrame {
        ManagementFrame(
            header: header(.action, from: transmitter, to: receiver, sequence: 20),
            body: .nanAction(NANActionFrame(subtype: subtype, attributes: attributes))
        )
    }

    static func pasn(
        from transmitter: MACAddress,
        to receiver: MACAddress,
        _ frame: PASNAuthenticationFrame
    )
        -> IEEE80211Frame
    {
        .management(
            ManagementFrame(
                header: header(.authentication, from: transmitter, to: receiver, bssid: receiver, sequence: 30),
                body: .pasnAuthentication(frame)
            )
        )
    }
}
