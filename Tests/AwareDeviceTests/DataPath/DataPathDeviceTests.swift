import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// Two synchronized devices on the simulated air set up a data path with the NDP machines and
/// carry QoS data frames over it: only in the committed slots, protected with the NDP's TK.
@Suite struct DataPathDeviceTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let pmk = [UInt8](repeating: 0x5A, count: 32)
    static let service = ServiceID(serviceName: "_drone-service._udp")

    final class Tap: AirTap {
        var dataFrames: [(frame: [UInt8], time: Instant, channel: NANChannel)] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            if frame.count > 2, frame[0] & 0x0C == 0x08 { dataFrames.append((frame, time, channel)) }
        }
    }

    struct Bench {
        let air: SimulatedAir
        let accessory: NANDevice
        let phone: NANDevice
        let accessoryPaths: DataPathManager
        let phonePaths: DataPathManager
        let tap: Tap
        var events: Events

        final class Events {
            var accessory: [DataPathEvent] = []
            var phone: [DataPathEvent] = []
            let delivered = DataDeliveries()
        }
    }

    func makeBench(
        seed: UInt64,
        availability: PerformanceMode = .bulk,
        air configuration: SimulatedAir.Configuration? = nil
    ) throws -> Bench {
        let air = SimulatedAir(configuration: configuration ?? SimulatedAir.Configuration(seed: seed))
        let tap = Tap()
        air.addTap(tap)
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: Self.accessoryAddress,
                synchronization: SynchronizationConfiguration(address: Self.accessoryAddress)
            ),
            air: air,
            seed: seed &+ 1
        )
        let phone = NANDevice(
            configuration: NANDevice.Configuration(
                name: "phone",
                address: Self.phoneAddress,
                position: .init(x: 3, y: 0),
                synchronization: SynchronizationConfiguration(address: Self.phoneAddress, masterPreference: 128)
            ),
            air: air,
            seed: seed &+ 2
        )
        var generator = SeededGenerator(seed: seed)
        let random: (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let accessoryPaths = DataPathManager(device: accessory, randomBytes: random)
        let phonePaths = DataPathManager(device: phone, randomBytes: random)
        let events = Bench.Events()
        accessoryPaths.eventHandler = { events.accessory.append($0) }
        phonePaths.eventHandler = { events.phone.append($0) }
        accessory.dataReceiver = events.delivered
        accessoryPaths.responderConfiguration = { peer, clusterID in
            NDPResponderConfiguration(
                localNMI: Self.accessoryAddress,
                localNDI: accessory.configuration.dataInterfaceAddress,
                clusterID: clusterID,
                availability: NDPSchedule(mode: availability),
                policy: NDPResponderPolicy(requiresSecurity: true),
                credentials: [Self.phoneAddress: .pmk(Self.pmk, suite: .ncsSK128)],
                serviceIDs: [1: Self.service]
            )
        }
        try accessory.start()
        try phone.start()
        air.virtualScheduler.run(for: .seconds(3))
        return Bench(
            air: air,
            accessory: accessory,
            phone: phone,
            accessoryPaths: accessoryPaths,
            phonePaths: phonePaths,
            tap: tap,
            events: events
        )
    }

    func request(_ bench: Bench, mode: PerformanceMode = .bulk, security: NDPSecurity) {
        let localNDI = bench.phone.configuration.dataInterfaceAddress
        bench.phonePaths.request(DataLinkID(peerNMI: Self.accessoryAddress, ndpID: 1)) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: Self.phoneAddress,
                localNDI: localNDI,
                peerNMI: Self.accessoryAddress,
                clusterID: clusterID,
                publishID: 1,
                serviceID: Self.service,
                security: security,
                proposal: NDPSchedule(mode: mode),
                qos: mode.ndlQoS,
                dialogToken: 1,
                ndpID: 1
            )
        }
    }

    @Test func aSecuredDataPathCarriesProtectedFramesOnlyInCommittedSlots() throws {
        let bench = try makeBench(seed: 11)
        request(bench, security: .pmk(Self.pmk, suite: .ncsSK128))
        bench.air.virtualScheduler.run(for: .seconds(5))
        guard case .established(let link) = try #require(bench.events.phone.first) else {
            Issue.record("phone: \(bench.events.phone)")
            return
        }
        #expect(link.schedule.slots == PerformanceMode.bulk.availableSlots)
        #expect(link.cipher == .ccmp128)
        let id = link.id
        let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0xAB, count: 200)
        for _ in 0..<40 { bench.phone.sendData(payload, on: id, category: .bestEffort) }
        bench.air.virtualScheduler.run(for: .seconds(3))

        // Every one arrived at the accessory, once, with the best-effort TID (0).
        #expect(bench.events.delivered.all.count == 40)
        #expect(bench.events.delivered.all.allSatisfy { $0.payload == payload && $0.tid == 0 })
        // On the air: protected, on channel 149, inside the bulk slots of the cluster's TSF.
        let clock = DataSlotClock(tsfOffsetMicroseconds: bench.phone.cluster?.tsfOffsetMicroseconds ?? 0)
        #expect(bench.tap.dataFrames.count >= 40)
        for carried in bench.tap.dataFrames {
            #expect(carried.frame[1] & 0x40 != 0, "Protected bit")
            #expect(carried.channel == .channel149)
            #expect(Set(PerformanceMode.bulk.availableSlots).contains(clock.slot(at: carried.time)))
        }
        let statistics = try #require(bench.phone.dataLinkStatistics(id))
        #expect(statistics.framesDelivered == 40)
        #expect(statistics.transmitLatencies[.bestEffort]?.count == 40)
    }

    @Test func anOpenRequestIsRefusedWithReasonSecurityPolicy() throws {
        let bench = try makeBench(seed: 12)
        request(bench, security: .open)
        bench.air.virtualScheduler.run(for: .seconds(5))
        guard case .failed(_, let failure) = try #require(bench.events.phone.first) else {
            Issue.record("phone: \(bench.events.phone)")
            return
        }
        #expect(failure.reason == .securityPolicy)
        #expect(bench.phone.dataLinks.isEmpty)
    }

    @Test func realtimeDeliversInEverySlotButBulkWaitsForItsBlocks() throws {
        var worst: [PerformanceMode: Interval] = [:]
        for mode in PerformanceMode.allCases {
            let bench = try makeBench(seed: 13, availability: mode)
            request(bench, mode: mode, security: .pmk(Self.pmk, suite: .ncsSK128))
            bench.air.virtualScheduler.run(for: .seconds(5))
            let id = try #require(bench.phonePaths.links.keys.first)
            // 50 frames 20 ms apart: like a 50 packet/s telemetry stream.
            for index in 0..<50 {
                bench.phone.scheduler.schedule(after: .milliseconds(Int64(index) * 20)) {
                    bench.phone.sendData(LLCSNAPHeader.ipv6.wireBytes + [1, 2, 3], on: id, category: .video)
                }
            }
            bench.air.virtualScheduler.run(for: .seconds(3))
            let latencies = try #require(bench.phone.dataLinkStatistics(id)?.transmitLatencies[.video])
            #expect(latencies.count == 50)
            worst[mode] = latencies.max()
        }
        // Bulk: up to the longest gap of its schedule (96 TU = 98.3 ms) plus one slot; realtime:
        // never more than the discovery-window slot it gives up (16 TU) plus access.
        #expect(try #require(worst[.realtime]) < .milliseconds(20))
        #expect(try #require(worst[.bulk]) > .milliseconds(40))
        #expect(try #require(worst[.bulk]) < .milliseconds(120))
    }

    /// Every device joins the air with its NMI and its NDI; devices numbered in sequence (the
    /// crowd benchmark's publishers) must not take each other's NMI as their NDI.
    @Test func devicesNumberedInSequenceJoinWithDistinctDataInterfaces() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 1))
        var devices: [NANDevice] = []
        for index in 0..<600 {
            let address = MACAddress(0x02, 0xC0, 0, 0, UInt8(index >> 8), UInt8(index & 0xFF))
            let device = NANDevice(
                configuration: NANDevice.Configuration(name: "d\(index)", address: address),
                air: air,
                seed: UInt64(index)
            )
            try device.start()
            devices.append(device)
        }
        let first = try #require(devices.first)
        #expect(first.configuration.dataInterfaceAddress == MACAddress(0x06, 0xC0, 0, 0, 0, 0))
        #expect(Set(devices.map(\.configuration.dataInterfaceAddress)).count == 600)
    }
}
