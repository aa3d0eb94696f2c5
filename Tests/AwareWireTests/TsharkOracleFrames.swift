import AwareCore
import Foundation

@testable import AwareWire

/// The representative frames TsharkOracleTests hands to tshark, built with the typed API: a
/// publish, a subscribe, a follow-up with a bootstrapping request, a Data Path Request NAF
/// and PASN Authentication frame 1. Distinct services, instance IDs and MACs make a mix-up
/// between frames visible.
enum TsharkOracleFrames {
    static let accessory = MACAddress(0x02, 0xA0, 0x00, 0x00, 0x00, 0x01)
    static let phone = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x00, 0x02)
    static let phoneNDI = MACAddress(0x02, 0xB0, 0x00, 0x00, 0x01, 0x02)
    static let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)

    static let droneService = "_drone-service._udp"
    static let cameraService = "_cam-stream._tcp"
    static let publishID: UInt8 = 5
    static let subscribeID: UInt8 = 7
    static let followUpSubscribeID: UInt8 = 9
    static let ndpID: UInt8 = 0x21
    static let ndpDialogToken: UInt8 = 4
    static let subscribeServiceInfo: [UInt8] = [0x68, 0x69]
    static let txtRecord = DNSSDTXTRecord([
        (key: "vendorName", value: "Example Inc"), (key: "modelName", value: "Example Model"),
        (key: "pairingName", value: "My Drone"),
    ])

    static var records: [CaptureRecord] {
        let frames = [publish, subscribe, followUp, dataPathRequest, pasnFrame1]
        return frames.enumerated().map { index, frame in
            CaptureRecord(
                timestamp: 1_700_000_000_000_000_000 + UInt64(index) * 1_000_000,
                radiotap: Radiotap(
                    flags: RadiotapFlags(rawValue: 0),
                    rate: 12,
                    channel: RadiotapChannel(ofdmAt: 2437),
                    antennaSignal: -40 - Int8(index)
                ),
                frame: frame.wireBytes
            )
        }
    }

    static func action(from sender: MACAddress, to receiver: MACAddress, _ body: ManagementFrameBody) -> IEEE80211Frame
    {
        .management(
            ManagementFrame(
                header: ManagementHeader(
                    frameControl: .management(.action),
                    address1: receiver,
                    address2: sender,
                    address3: cluster
                ),
                body: body
            )
        )
    }

    static let deviceCapability = NANAttribute.deviceCapability(
        DeviceCapabilityAttribute(
            committedDWInfo: 0x0009,
            supportedBands: 0x14,
            operationMode: 0x01,
            numberOfAntennas: 0x22,
            maxChannelSwitchTime: 5000,
            capabilities: 0x08
        )
    )

    static let pairingCapable = NANAttribute.deviceCapabilityExtension(
        DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: true)
    )

    static var publish: IEEE80211Frame {
        let sda = ServiceDescriptorAttribute(
            serviceID: ServiceID(serviceName: droneService),
            instanceID: publishID,
            type: .publish
        )
        let sdea = ServiceDescriptorExtensionAttribute(
            instanceID: publishID,
            control: [.dataPathRequired, .securityRequired],
            serviceInfo: .structured(ServiceSpecificInfo(bonjour: txtRecord))
        )
        let npba = PairingBootstrappingAttribute(
            dialogToken: 0,
            type: .advertise,
            status: .accepted,
            methods: [.pinCodeDisplay, .opportunistic]
        )
        return action(
            from: accessory,
            to: .nanNetworkID,
            .serviceDiscovery(
                ServiceDiscoveryFrame(attributes: [
                    .serviceDescriptor(sda), .serviceDescriptorExtension(sdea), deviceCapability, pairingCapable,
                    .pairingBootstrapping(npba),
                ])
            )
        )
    }

    static var subscribe: IEEE80211Frame {
        let sda = ServiceDescriptorAttribute(
            serviceID: ServiceID(serviceName: cameraService),
            instanceID: subscribeID,
            type: .subscribe,
            discoveryRangeLimited: true,
            serviceInfo: subscribeServiceInfo
        )
        return action(
            from: phone,
            to: .nanNetworkID,
            .serviceDiscovery(ServiceDiscoveryFrame(attributes: [.serviceDescriptor(sda), pairingCapable]))
        )
    }

    static var followUp: IEEE80211Frame {
        let sda = ServiceDescriptorAttribute(
            serviceID: ServiceID(serviceName: droneService),
            instanceID: followUpSubscribeID,
            requestorInstanceID: publishID,
            type: .followUp
        )
        let npba = PairingBootstrappingAttribute(
            dialogToken: 3,
            type: .request,
            status: .accepted,
            methods: .pinCodeKeypad
        )
        return action(
            from: phone,
            to: accessory,
            .serviceDiscovery(
                ServiceDiscoveryFrame(attributes: [
                    .serviceDescriptor(sda), pairingCapable, .pairingBootstrapping(npba),
                ])
            )
        )
    }

    /// Committed on channel 6 (operating class 81, bitmap bit 5) in slots 1-7 of each
    /// 512 TU period of 16 TU bits.
    static let availability = AvailabilityAttribute(
        sequenceID: 3,
        mapID: 1,
        committedChanged: true,
        entries: [
            AvailabilityEntry(
                committed: true,
                usagePreference: 2,
                utilization: 1,
                rxNSS: 1,
                timeBitmap: TimeBitmap(
                    control: TimeBitmapControl(bitDuration: .tu16, period: .tu512, startOffset: 2),
                    bitmap: [0xFE, 0x00]
                ),
                bandChannelEntries: BandChannelEntries(channels: [
                    ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)
                ])
            )
        ]
    )

    static var dataPathRequest: IEEE80211Frame {
        let ndp = NDPAttribute(
            dialogToken: ndpDialogToken,
            type: .request,
            status: .continued,
            initiatorNDI: phoneNDI,
            ndpID: ndpID,
            ndpControl: [.confirmRequired, .securityPresent],
            publishID: publishID
        )
        let ndl = NDLAttribute(dialogToken: ndpDialogToken, type: .request, status: .continued)
        return action(
            from: phone,
            to: accessory,
            .nanAction(
                NANActionFrame(
                    subtype: .dataPathRequest,
                    attributes: [deviceCapability, .ndp(ndp), .availability(availability), .ndl(ndl)]
                )
            )
        )
    }

    /// An SAE commit for group 19 with recognisable (not valid) scalar and element octets.
    static var saeCommit: [UInt8] {
        let commit = SAECommit(
            group: .p256,
            scalar: [UInt8](repeating: 0x11, count: 32),
            element: [UInt8](repeating: 0x22, count: 64)
        )
        var writer = WireWriter()
        PASNWrappedSAE.frame1(
            commit: SAEAuthentication(transactionSequence: 1, status: 126, message: .commit(commit))
        ).write(to: &writer)
        return writer.bytes
    }

    static var pasnFrame1: IEEE80211Frame {
        let nan = NANElement(attributes: [
            .cipherSuiteInfo(
                CipherSuiteInfoAttribute(
                    capabilities: CipherSuiteCapabilities(rawValue: 0),
                    cipherSuites: [CipherSuite(csid: .ncsPKPASN128, instanceID: publishID)]
                )
            ),
            pairingCapable,
            .pairingBootstrapping(
                PairingBootstrappingAttribute(
                    dialogToken: 3,
                    type: .request,
                    status: .accepted,
                    methods: .pinCodeKeypad
                )
            ),
        ])
        let pasn = PASNAuthenticationFrame(
            transactionSequence: 1,
            elements: [
                .rsn(.nanPairing(akm: .akmSAE, pairwise: .ccmp128, pmkid: nil)),
                .wrappedData(WrappedDataElement(data: saeCommit)),
                .rsnExtension(.saeHashToElement()),
                .pasnParameters(
                    PASNParametersElement(
                        wrappedDataFormat: .sae,
                        ephemeralKey: PASNEphemeralKey(
                            group: 19,
                            publicKey: [0x02] + [UInt8](repeating: 0x33, count: 32)
                        )
                    )
                ),
                .nan(nan),
            ]
        )
        return .management(
            ManagementFrame(
                header: ManagementHeader(
                    frameControl: .management(.authentication),
                    address1: accessory,
                    address2: phone,
                    address3: cluster
                ),
                body: .pasnAuthentication(pasn)
            )
        )
    }
}
