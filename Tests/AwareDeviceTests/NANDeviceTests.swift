import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// Two devices on the simulated air: the machines, driven by real frames, find each other.
@Suite struct NANDeviceTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)

    /// The phone's delegate: keeps what it reports, and hides every frame from it when told to.
    final class Collector: NANDeviceDelegate {
        var results: [DiscoveryResult] = []
        var synchronization: [SynchronizationNotification] = []
        var hidesFrames = false

        func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
            switch notification {
            case .discovery(.discoveryResult(let result)): results.append(result)
            case .synchronization(let event): synchronization.append(event)
            default: break
            }
        }

        func device(_ device: NANDevice, filterInbound frame: ReceivedFrame) -> ReceivedFrame? {
            hidesFrames ? nil : frame
        }
    }

    func makePair(synchronized: Bool, seed: UInt64) -> (SimulatedAir, NANDevice, NANDevice, Collector) {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: Self.accessoryAddress,
                synchronization: synchronized ? SynchronizationConfiguration(address: Self.accessoryAddress) : nil
            ),
            air: air,
            seed: seed &+ 1
        )
        let phone = NANDevice(
            configuration: NANDevice.Configuration(
                name: "phone",
                address: Self.phoneAddress,
                position: .init(x: 3, y: 0),
                synchronization: synchronized
                    ? SynchronizationConfiguration(address: Self.phoneAddress, masterPreference: 128) : nil
            ),
            air: air,
            seed: seed &+ 2
        )
        let collector = Collector()
        phone.delegate = collector
        return (air, accessory, phone, collector)
    }

    @Test(arguments: [false, true])
    func aPassiveSubscriberFindsAnUnsolicitedPublisher(synchronized: Bool) throws {
        let (air, accessory, phone, collector) = makePair(synchronized: synchronized, seed: 7)
        try accessory.start()
        try phone.start()
        let txt = DNSSDTXTRecord([("vendorName", "Example Inc"), ("modelName", "Example Model")])
        accessory.perform(
            .publish(
                PublishConfiguration(
                    serviceName: "_drone-service._udp",
                    solicitation: .unsolicited,
                    serviceInfo: ServiceSpecificInfo(bonjour: txt)
                )
            )
        )
        phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .passive)))
        air.virtualScheduler.run(for: .seconds(10))
        let result = try #require(collector.results.first)
        #expect(result.publisherAddress == Self.accessoryAddress)
        #expect(result.serviceID == ServiceID(serviceName: "_drone-service._udp"))
        #expect(result.txtRecord?.value(forKey: "vendorName") == "Example Inc")
        #expect(!result.solicited)
        // Path loss at 3 m with exponent 3: on channel 6, 20 - (40.19 + 30 log10 3) = -34.5 dBm;
        // on channel 149 (5745 MHz), 20 - (47.63 + 30 log10 3) = -41.9 dBm. Synchronized, the
        // first Publish heard may come in either window.
        if result.channel == .channel149 {
            #expect(synchronized)
            #expect((-43 ... -41).contains(result.rssiDBm))
        } else {
            #expect(result.channel == .channel6)
            #expect((-36 ... -33).contains(result.rssiDBm))
        }
        if synchronized {
            // Both joined one cluster; the phone (higher master preference) is anchor master.
            #expect(accessory.cluster?.clusterID == phone.cluster?.clusterID)
            #expect(accessory.cluster != nil)
        }
    }

    @Test func anActiveSubscriberGetsASolicitedReply() throws {
        let (air, accessory, phone, collector) = makePair(synchronized: false, seed: 3)
        try accessory.start()
        try phone.start()
        accessory.perform(.publish(PublishConfiguration(serviceName: "_drone-service._udp", solicitation: .solicited)))
        phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active)))
        air.virtualScheduler.run(for: .seconds(2))
        let result = try #require(collector.results.first)
        #expect(result.solicited)
        #expect(result.publisherAddress == Self.accessoryAddress)
    }

    @Test func solicitedOnlyAndPassiveNeverMeet() throws {
        let (air, accessory, phone, collector) = makePair(synchronized: false, seed: 3)
        try accessory.start()
        try phone.start()
        accessory.perform(.publish(PublishConfiguration(serviceName: "_drone-service._udp", solicitation: .solicited)))
        phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .passive)))
        air.virtualScheduler.run(for: .seconds(10))
        #expect(collector.results.isEmpty)
    }

    @Test func theSameSeedGivesTheSameCapture() throws {
        func capture(seed: UInt64) throws -> [UInt8] {
            let (air, accessory, phone, _) = makePair(synchronized: true, seed: seed)
            let tap = CaptureTap(format: .pcap)
            air.addTap(tap)
            try accessory.start()
            try phone.start()
            accessory.perform(.publish(PublishConfiguration(serviceName: "_drone-service._udp")))
            phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp", mode: .active)))
            air.virtualScheduler.run(for: .seconds(5))
            return tap.bytes
        }
        let first = try capture(seed: 11)
        #expect(first.count > 1_000)
        #expect(try capture(seed: 11) == first)
        #expect(try capture(seed: 12) != first)
    }

    @Test func anInboundFilterCanHideFrames() throws {
        let (air, accessory, phone, collector) = makePair(synchronized: false, seed: 5)
        collector.hidesFrames = true
        try accessory.start()
        try phone.start()
        accessory.perform(.publish(PublishConfiguration(serviceName: "_drone-service._udp")))
        phone.perform(.subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp")))
        air.virtualScheduler.run(for: .seconds(2))
        #expect(collector.results.isEmpty)
    }
}
