import AwareCore
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
    final class Received {
        var byAccessory: [ReceivedFrame] = []
        var byPhone: [ReceivedFrame] = []
        var phoneEvents: [DataPathEvent] = []
    }

    /// Sets up one secured data path on ``DataPathDeviceTests``' bench and returns every NAF each
    /// side received.
    func exchange(phoneReadsNDPE: Bool) throws -> (Received, cluster: MACAddress?) {
        let bench = try DataPathDeviceTests().makeBench(seed: 21)
        bench.phone.deviceCapability = .bench(ndpeSupported: phoneReadsNDPE)
        let received = Received()
        bench.accessoryPaths.receivedFrameObserver = { _, frame in received.byAccessory.append(frame) }
        bench.phonePaths.receivedFrameObserver = { _, frame in received.byPhone.append(frame) }
        let cluster = try #require(bench.phone.cluster?.clusterID)
        let phoneNDI = bench.phone.configuration.dataInterfaceAddress
        bench.phonePaths.request(DataLinkID(peerNMI: DataPathDeviceTests.accessoryAddress, ndpID: 1)) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: DataPathDeviceTests.phoneAddress,
                localNDI: phoneNDI,
                peerNMI: DataPathDeviceTests.accessoryAddress,
                clusterID: clusterID,
                publishID: 1,
                serviceID: DataPathDeviceTests.service,
                security: .pmk(DataPathDeviceTests.pmk, suite: .ncsSK128),
                proposal: NDPSchedule(mode: .bulk),
                usesNDPE: phoneReadsNDPE,
                dialogToken: 1,
                ndpID: 1
            )
        }
        bench.air.virtualScheduler.run(for: .seconds(3))
        received.phoneEvents = bench.events.phone
        return (received, bench.accessory.cluster?.clusterID == cluster ? cluster : nil)
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
