import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// What each role's data-path NAFs carry, as the peer's device received them (after the
/// protection), on the simulated air: every NAF leads with the sender's Device Capability (hostap
/// refuses a data path with a peer that sent none), A3 is the cluster ID, the attribute is NDPE
/// when both capabilities read it and NDP otherwise, and the accepting response selects an NDC.
@Suite struct DataPathFrameContentTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let pmk = [UInt8](repeating: 0x5A, count: 32)
    static let service = ServiceID(serviceName: "_drone-service._udp")

    final class Received {
        var byAccessory: [ReceivedFrame] = []
        var byPhone: [ReceivedFrame] = []
        var phoneEvents: [DataPathEvent] = []
    }

    /// Sets up one secured data path and returns every NAF each side received.
    func exchange(phoneReadsNDPE: Bool) throws -> (Received, cluster: MACAddress?) {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 21))
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: Self.accessoryAddress,
                synchronization: SynchronizationConfiguration(address: Self.accessoryAddress)
            ),
            air: air,
            seed: 22
        )
        let phone = NANDevice(
            configuration: NANDevice.Configuration(
                name: "phone",
                address: Self.phoneAddress,
                position: .init(x: 3, y: 0),
                synchronization: SynchronizationConfiguration(address: Self.phoneAddress, masterPreference: 128)
            ),
            air: air,
            seed: 23
        )
        phone.deviceCapability = .bench(ndpeSupported: phoneReadsNDPE)
        var generator = SeededGenerator(seed: 24)
        let random: (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let accessoryPaths = DataPathManager(device: accessory, randomBytes: random)
        let phonePaths = DataPathManager(device: phone, randomBytes: random)
        let received = Received()
        accessoryPaths.receivedFrameObserver = { _, frame in received.byAccessory.append(frame) }
        phonePaths.receivedFrameObserver = { _, frame in received.byPhone.append(frame) }
        phonePaths.eventHandler = { received.phoneEvents.append($0) }
        accessoryPaths.responderConfiguration = { _, clusterID in
            NDPResponderConfiguration(
                localNMI: Self.accessoryAddress,
                localNDI: accessory.configuration.dataInterfaceAddress,
                clusterID: clusterID,
                availability: NDPSchedule(mode: .bulk),
                credentials: [Self.phoneAddress: .pmk(Self.pmk, suite: .ncsSK128)],
                serviceIDs: [1: Self.service]
            )
        }
        try accessory.start()
        try phone.start()
        air.virtualScheduler.run(for: .seconds(3))
        let cluster = try #require(phone.cluster?.clusterID)
        phonePaths.request(DataLinkID(peerNMI: Self.accessoryAddress, ndpID: 1)) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: Self.phoneAddress,
                localNDI: phone.configuration.dataInterfaceAddress,
                peerNMI: Self.accessoryAddress,
                clusterID: clusterID,
                publishID: 1,
                serviceID: Self.service,
                security: .pmk(Self.pmk, suite: .ncsSK128),
                proposal: NDPSchedule(mode: .bulk),
                usesNDPE: phoneReadsNDPE,
                dialogToken: 1,
                ndpID: 1
            )
        }
        air.virtualScheduler.run(for: .seconds(3))
        return (received, accessory.cluster?.clusterID == cluster ? cluster : nil)
    }

    private func ids(_ frame: ReceivedFrame) -> [UInt8] {
        guard case .nanAction(let naf) = frame.frame.body else { return [] }
        return naf.attributes.map(\.id.rawValue)
    }

    @Test func everyNAFLeadsWithTheSendersDeviceCapability() throws {
        let (received, cluster) = try exchange(phoneReadsNDPE: true)
        let sharedCluster = try #require(cluster, "both devices are in one cluster")
        #expect(received.phoneEvents.contains { if case .established = $0 { true } else { false } })
        // Request and Confirm from the phone; Response and Key Installment from the accessory.
        // 0x0F Device Capability, 0x29 NDPE, 0x22-0x24 CSIA/SCIA/SKDA, 0x12 NAN Availability,
        // 0x13 NDC, 0x14 NDL, 0x15 NDL QoS.
        #expect(
            received.byAccessory.map(ids) == [[0x0F, 0x29, 0x22, 0x23, 0x24, 0x12, 0x14], [0x0F, 0x29, 0x24, 0x12]]
        )
        #expect(
            received.byPhone.map(ids) == [[0x0F, 0x29, 0x22, 0x23, 0x24, 0x12, 0x13, 0x14], [0x0F, 0x29, 0x24, 0x12]]
        )
        for frame in received.byAccessory + received.byPhone {
            #expect(frame.frame.header.address3 == sharedCluster)
            guard case .nanAction(let naf) = frame.frame.body,
                case .deviceCapability(let capability) = naf.attributes[0]
            else { continue }
            #expect(capability.ndpeAttributeSupported)
        }
    }

    /// A phone whose capability clears the NDPE bit writes NDP (0x10), and the accessory, reading
    /// the request's Device Capability, answers in NDP too.
    @Test func aPhoneThatReadsOnlyNDPIsAnsweredInNDP() throws {
        let (received, _) = try exchange(phoneReadsNDPE: false)
        #expect(received.phoneEvents.contains { if case .established = $0 { true } else { false } })
        let attributes = (received.byAccessory + received.byPhone).map(ids)
        #expect(!attributes.isEmpty)
        #expect(attributes.allSatisfy { $0.contains(0x10) && !$0.contains(0x29) })
    }
}
