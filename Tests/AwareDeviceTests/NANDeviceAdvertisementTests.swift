import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// What a device says of itself for data paths (nan-wire-reference.md 2.6, 2.7, 4.1), read back
/// from the frames on the air: every SDF of a data-path service carries the Device Capability
/// and a NAN Availability; a beacon-like publish carries neither; the availability's Sequence ID
/// moves on when its content changes (a peer ignores one that is not newer); the device keeps
/// the Device Capability its peers send.
@Suite struct NANDeviceAdvertisementTests {
    private let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    private let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)

    private func publishes(_ tap: CaptureTap, from address: MACAddress, service: String) -> [[NANAttribute]] {
        let serviceID = ServiceID(serviceName: service)
        return tap.records.compactMap { record in
            guard let frame = try? IEEE80211Frame(bytes: record.frame).managementFrame,
                frame.header.address2 == address, case .serviceDiscovery(let sdf) = frame.body,
                sdf.attributes.contains(where: {
                    if case .serviceDescriptor(let sda) = $0 {
                        sda.type == .publish && sda.serviceID == serviceID
                    } else {
                        false
                    }
                })
            else { return nil }
            return sdf.attributes
        }
    }

    private func availability(_ attributes: [NANAttribute]) -> AvailabilityAttribute? {
        attributes.lazy.compactMap { if case .availability(let value) = $0 { value } else { nil } }.first
    }

    @Test func dataPathServicesAdvertiseCapabilityAndAvailability() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 7))
        let tap = CaptureTap(format: .pcap)
        air.addTap(tap)
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(name: "accessory", address: accessoryAddress),
            air: air,
            seed: 1
        )
        let phone = NANDevice(
            configuration: NANDevice.Configuration(name: "phone", address: phoneAddress, position: .init(x: 2, y: 0)),
            air: air,
            seed: 2
        )
        try accessory.start()
        try phone.start()
        accessory.advertiseDataPaths(offering: NDPSchedule(mode: .bulk))
        accessory.perform(
            .publish(PublishConfiguration(serviceName: "_drone-service._udp", solicitation: .unsolicited))
        )
        accessory.perform(
            .publish(
                PublishConfiguration(serviceName: "_beacon._udp", solicitation: .unsolicited, offersDataPaths: false)
            )
        )
        phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp")))
        air.virtualScheduler.run(for: .milliseconds(500))

        let drone = publishes(tap, from: accessoryAddress, service: "_drone-service._udp")
        try #require(!drone.isEmpty)
        for attributes in drone {
            #expect(attributes.contains(.deviceCapability(.bench())))
            let offered = try #require(availability(attributes))
            // Map 0, Committed and Potential Changed: Attribute Control 0x0030; one potential
            // entry (no data path yet) with the bulk bitmap on channel 149.
            #expect(offered.attributeControl == 0x0030)
            #expect(offered.entries.count == 1 && offered.entries[0].isPotential)
            #expect(NDPSchedule(potentialIn: offered)?.slots == PerformanceMode.bulk.availableSlots)
        }
        for attributes in publishes(tap, from: accessoryAddress, service: "_beacon._udp") {
            #expect(!attributes.contains { if case .deviceCapability = $0 { true } else { false } })
            #expect(availability(attributes) == nil)
        }
        #expect(phone.peerCapability(accessoryAddress) == .bench())

        // A change of the offer is a new Sequence ID; so is a data-path NAF's.
        let first = try #require(drone.last.flatMap(availability)).sequenceID
        accessory.advertiseDataPaths(offering: NDPSchedule(mode: .realtime))
        let count = drone.count
        air.virtualScheduler.run(for: .milliseconds(500))
        let after = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").dropFirst(count)
        let second = try #require(after.last.flatMap(availability))
        #expect(second.sequenceID == first &+ 1)
        #expect(NDPSchedule(potentialIn: second)?.isFull == true)
        let naf = accessory.nextAvailabilitySequenceID()
        #expect(naf == second.sequenceID &+ 1)
        // The SDFs keep the older ID for unchanged content: a peer holding the NAF's newer
        // availability ignores theirs (hostap: "Ignore peer avail update"); a change of content
        // takes an ID newer than the NAF's.
        let beforeNAF = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").count
        air.virtualScheduler.run(for: .milliseconds(300))
        let sinceNAF = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").dropFirst(beforeNAF)
        #expect(sinceNAF.compactMap(availability).allSatisfy { $0.sequenceID == second.sequenceID })
        accessory.advertiseDataPaths(offering: NDPSchedule(mode: .bulk))
        let beforeChange = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").count
        air.virtualScheduler.run(for: .milliseconds(300))
        let changed = try #require(
            publishes(tap, from: accessoryAddress, service: "_drone-service._udp").dropFirst(beforeChange).last
                .flatMap(availability)
        )
        #expect(changed.sequenceID == naf &+ 1)

        // The capability switched off (a fault) leaves the Device Capability out.
        accessory.deviceCapability = nil
        let before = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").count
        air.virtualScheduler.run(for: .milliseconds(500))
        let without = publishes(tap, from: accessoryAddress, service: "_drone-service._udp").dropFirst(before)
        try #require(!without.isEmpty)
        for attributes in without {
            #expect(!attributes.contains { if case .deviceCapability = $0 { true } else { false } })
            #expect(availability(attributes) != nil)
        }
    }
}
