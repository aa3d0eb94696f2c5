import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

@testable import AwareDevice

/// Issue 14, point 4, and the cluster of a data path with a device that discovers with USD: a
/// Data Path Request goes out only once the phone is in a cluster, with that cluster's ID as A3
/// (nan-wire-reference.md 1.3, 4.1), never the phone's own NMI; without a cluster within the
/// request's time limit it fails with ``NDPFailure/Kind/noCluster``. An unsynchronized
/// accessory answers in the cluster the request names and counts its slots from that cluster's
/// TSF, learnt from its beacons.
@Suite struct DataPathClusterTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let anchorAddress = MACAddress(0x02, 0xC0, 0, 0, 0, 0xFF)
    /// The cluster the hand-built anchor beacons in: A3 50:6F:9A:01:BE:EF.
    static let clusterOctets: [UInt8] = [0x50, 0x6F, 0x9A, 0x01, 0xBE, 0xEF]
    static let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0xBE, 0xEF)
    /// The anchor's TSF less the scheduler's clock: 11 periods and 13.5 slots.
    static let anchorTSF = 11 * DataSlotClock.periodMicroseconds + 27 * DataSlotClock.slotMicroseconds / 2
    static let pmk = [UInt8](repeating: 0x5A, count: 32)
    static let service = ServiceID(serviceName: "_drone-service._udp")
    static let id = DataLinkID(peerNMI: accessoryAddress, ndpID: 1)

    final class Tap: AirTap {
        var frames: [(frame: [UInt8], time: Instant)] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            frames.append((frame, time))
        }

        /// Data-path NAFs (an Action frame, WFA OUI, type 0x18) of `subtype` (5 Request, 6 Response).
        func nafs(subtype: UInt8) -> [(frame: [UInt8], time: Instant)] {
            frames.filter {
                $0.frame.count > 30 && $0.frame[0] == 0xD0 && $0.frame[26..<30].elementsEqual([0x50, 0x6F, 0x9A, 0x18])
                    && $0.frame[30] == subtype
            }
        }

        var dataFrames: [(frame: [UInt8], time: Instant)] { frames.filter { $0.frame[0] & 0x0C == 0x08 } }
    }

    /// A master of cluster 50:6F:9A:01:BE:EF that is neither device: its discovery beacon every
    /// 100 TU on channel 6 (1.4), its Master Rank above the phone's.
    final class Anchor {
        let port: any AirPort
        let scheduler: any EventScheduler
        var sequence: UInt16 = 0

        init(air: SimulatedAir) throws {
            port = try air.attach(
                StationConfiguration(
                    addresses: [DataPathClusterTests.anchorAddress],
                    position: .init(x: 1, y: 2),
                    name: "anchor"
                ),
                receive: { _ in },
                transmitted: { _ in }
            )
            port.listeningChannels = [.channel6]
            scheduler = air.scheduler
        }

        func beacon(every interval: Interval, from first: Instant) {
            scheduler.schedule(at: first) { [self] in
                let tsf = UInt64(Int64(scheduler.now.nanoseconds / 1_000) + DataPathClusterTests.anchorTSF)
                let attributes: [NANAttribute] = [
                    .masterIndication(MasterIndicationAttribute(masterPreference: 255, randomFactor: 1)),
                    .cluster(
                        ClusterAttribute(
                            anchorMasterRank: ClusterAttribute.masterRank(
                                masterPreference: 255,
                                randomFactor: 1,
                                address: DataPathClusterTests.anchorAddress
                            ),
                            hopCountToAnchorMaster: 0,
                            anchorMasterBeaconTransmissionTime: UInt32(truncatingIfNeeded: tsf)
                        )
                    ),
                ]
                let frame = ManagementFrame(
                    header: ManagementHeader(
                        frameControl: .management(.beacon),
                        address1: .broadcast,
                        address2: DataPathClusterTests.anchorAddress,
                        address3: DataPathClusterTests.cluster,
                        sequenceControl: SequenceControl(sequenceNumber: sequence)
                    ),
                    body: .nanBeacon(
                        NANBeacon(
                            timestamp: tsf,
                            beaconInterval: NANBeacon.discoveryBeaconInterval,
                            elements: [.nan(NANElement(attributes: attributes))]
                        )
                    )
                )
                sequence = (sequence + 1) & 0x0FFF
                port.transmit(TxRequest(frame: frame.wireBytes, channel: .channel6, powerDBm: 20, cookie: 0))
                beacon(every: interval, from: scheduler.now + interval)
            }
        }
    }

    /// Also the phone device's delegate, for when it joined the cluster.
    final class Events: NANDeviceDelegate {
        var phone: [DataPathEvent] = []
        var accessory: [DataPathEvent] = []
        let delivered = DataDeliveries()
        var phoneJoined: Instant?

        func device(_ device: NANDevice, didNotify notification: DeviceNotification) {
            if case .synchronization(.clusterJoined) = notification { phoneJoined = device.now }
        }
    }

    func device(
        _ name: String,
        _ address: MACAddress,
        synchronization: SynchronizationConfiguration?,
        air: SimulatedAir
    )
        -> NANDevice
    {
        NANDevice(
            configuration: NANDevice.Configuration(
                name: name,
                address: address,
                position: .init(x: address == Self.phoneAddress ? 3 : 0, y: 0),
                synchronization: synchronization
            ),
            air: air,
            seed: UInt64(address.octets[5])
        )
    }

    func request(_ manager: DataPathManager, phone: NANDevice) {
        let localNDI = phone.configuration.dataInterfaceAddress
        manager.request(Self.id) { clusterID in
            NDPInitiatorConfiguration(
                localNMI: Self.phoneAddress,
                localNDI: localNDI,
                peerNMI: Self.accessoryAddress,
                clusterID: clusterID,
                publishID: 1,
                serviceID: Self.service,
                security: .pmk(Self.pmk, suite: .ncsSK128),
                proposal: NDPSchedule(mode: .bulk),
                qos: PerformanceMode.bulk.ndlQoS,
                dialogToken: 1,
                ndpID: 1
            )
        }
    }

    /// The phone asks at once, while it still scans; it joins the anchor's cluster at its first
    /// beacon and only then does the request go, A3 = 50:6F:9A:01:BE:EF. The accessory discovers
    /// with USD: it answers in that cluster and carries data in its slots.
    @Test func theRequestWaitsForTheClusterAndNamesItInA3() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 51))
        let tap = Tap()
        air.addTap(tap)
        let anchor = try Anchor(air: air)
        let phone = device(
            "phone",
            Self.phoneAddress,
            synchronization: SynchronizationConfiguration(address: Self.phoneAddress, masterPreference: 128),
            air: air
        )
        let accessory = device("accessory", Self.accessoryAddress, synchronization: nil, air: air)
        var generator = SeededGenerator(seed: 51)
        let random: (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let phonePaths = DataPathManager(device: phone, randomBytes: random)
        let accessoryPaths = DataPathManager(device: accessory, randomBytes: random)
        let events = Events()
        phonePaths.eventHandler = { events.phone.append($0) }
        accessoryPaths.eventHandler = { events.accessory.append($0) }
        accessory.dataReceiver = events.delivered
        phone.delegate = events
        accessoryPaths.responderConfiguration = { peer, clusterID in
            NDPResponderConfiguration(
                localNMI: Self.accessoryAddress,
                localNDI: accessory.configuration.dataInterfaceAddress,
                clusterID: clusterID,
                availability: NDPSchedule(mode: .bulk),
                policy: NDPResponderPolicy(requiresSecurity: true),
                credentials: [Self.phoneAddress: .pmk(Self.pmk, suite: .ncsSK128)],
                serviceIDs: [1: Self.service]
            )
        }
        try phone.start()
        try accessory.start()
        request(phonePaths, phone: phone)
        anchor.beacon(every: .timeUnits(100), from: .zero + .milliseconds(50))
        air.virtualScheduler.run(for: .seconds(5))

        let joined = try #require(events.phoneJoined)
        #expect(phone.cluster?.clusterID.octets == Self.clusterOctets)
        let requests = tap.nafs(subtype: 5)
        let first = try #require(requests.first)
        #expect(first.time >= joined, "a Data Path Request went out before the phone was in a cluster")
        // A1 the accessory's NMI, A2 the phone's, A3 the Cluster ID, never the phone's NMI.
        #expect(Array(first.frame[4..<10]) == [0x02, 0xA0, 0x00, 0x00, 0x00, 0x01])
        #expect(Array(first.frame[10..<16]) == [0x02, 0xB0, 0x00, 0x00, 0x00, 0x02])
        #expect(Array(first.frame[16..<22]) == [0x50, 0x6F, 0x9A, 0x01, 0xBE, 0xEF])
        let response = try #require(tap.nafs(subtype: 6).first)
        #expect(Array(response.frame[16..<22]) == [0x50, 0x6F, 0x9A, 0x01, 0xBE, 0xEF])

        guard case .established(let link) = try #require(events.phone.first) else {
            Issue.record("phone: \(events.phone)")
            return
        }
        guard case .established = try #require(events.accessory.first) else {
            Issue.record("accessory: \(events.accessory)")
            return
        }
        for index in 0..<20 {
            phone.sendData(LLCSNAPHeader.ipv6.wireBytes + [UInt8(index)], on: link.id, category: .bestEffort)
        }
        air.virtualScheduler.run(for: .seconds(2))
        #expect(events.delivered.all.count == 20)
        let statistics = try #require(phone.dataLinkStatistics(link.id))
        #expect(statistics.framesDelivered == 20 && statistics.framesFailed == 0)
        // Each data frame went once, A3 the Cluster ID, in a committed slot of the anchor's TSF.
        let anchorClock = DataSlotClock(tsfOffsetMicroseconds: Self.anchorTSF)
        let data = tap.dataFrames
        #expect(data.count == 20, "transmissions: \(data.count)")
        for carried in data {
            #expect(Array(carried.frame[16..<22]) == Self.clusterOctets)
            #expect(PerformanceMode.bulk.availableSlots.contains(anchorClock.slot(at: carried.time)))
        }
    }

    /// An unsynchronized phone that hears no cluster, and a synchronized one whose scan outlasts
    /// the request's time limit: no Data Path Request is sent, and the data path fails with
    /// ``NDPFailure/Kind/noCluster`` when the time limit (3 s: three transmissions a second
    /// apart) ends.
    @Test(arguments: [false, true])
    func withoutAClusterInTimeTheRequestFailsAndNothingIsSent(synchronized: Bool) throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 52))
        let tap = Tap()
        air.addTap(tap)
        let phone = device(
            "phone",
            Self.phoneAddress,
            synchronization: synchronized
                ? SynchronizationConfiguration(address: Self.phoneAddress, scanPeriod: .seconds(10)) : nil,
            air: air
        )
        let accessory = device("accessory", Self.accessoryAddress, synchronization: nil, air: air)
        let phonePaths = DataPathManager(device: phone, randomBytes: { [UInt8](repeating: 7, count: $0) })
        let events = Events()
        var failedAt: Instant?
        phonePaths.eventHandler = { [unowned phone] event in
            events.phone.append(event)
            failedAt = phone.now
        }
        try phone.start()
        try accessory.start()
        request(phonePaths, phone: phone)
        air.virtualScheduler.run(for: .milliseconds(2_900))
        #expect(events.phone.isEmpty)
        air.virtualScheduler.run(for: .seconds(2))
        #expect(events.phone == [.failed(Self.id, NDPFailure(.noCluster))])
        #expect(failedAt == .zero + .seconds(3))
        #expect(tap.nafs(subtype: 5).isEmpty)
        #expect("\(NDPFailure(.noCluster))".contains("no cluster"))
    }

    /// A request that is given up while it waits for the cluster never goes out.
    @Test func aRequestForgottenWhileItWaitsNeverGoes() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 53))
        let tap = Tap()
        air.addTap(tap)
        let phone = device(
            "phone",
            Self.phoneAddress,
            synchronization: SynchronizationConfiguration(address: Self.phoneAddress),
            air: air
        )
        let phonePaths = DataPathManager(device: phone, randomBytes: { [UInt8](repeating: 7, count: $0) })
        let events = Events()
        phonePaths.eventHandler = { events.phone.append($0) }
        try phone.start()
        request(phonePaths, phone: phone)
        air.virtualScheduler.run(for: .seconds(1))
        phonePaths.forget(Self.id)
        air.virtualScheduler.run(for: .seconds(5))
        #expect(phone.cluster != nil)
        #expect(events.phone.isEmpty)
        #expect(tap.nafs(subtype: 5).isEmpty)
    }

    // MARK: - The clusters an unsynchronized device hears

    @Test func theLargestEstimateOfAClustersTSFIsKeptUntilItsTimeJumps() {
        var clusters = HeardClusters()
        let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x00, 0x01)
        let master = MACAddress(0x02, 0, 0, 0, 0, 1)
        func heard(_ timestamp: UInt64, at arrival: Instant) -> Bool {
            clusters.heard(clusterID: cluster, transmitter: master, timestamp: timestamp, arrival: arrival)
        }
        // Stamped 1_000_000 µs, heard at 100 ms: the TSF is 900_000 µs ahead of the local clock.
        var changed = heard(1_000_000, at: ms(100))
        #expect(changed && clusters.tsfOffset(of: cluster) == 900_000)
        // A beacon that arrived 300 µs later after its stamp says less: the estimate stays.
        changed = heard(1_102_400, at: us(202_700))
        #expect(!changed && clusters.tsfOffset(of: cluster) == 900_000)
        // One that arrived sooner after its stamp says more: taken.
        changed = heard(1_204_850, at: us(304_800))
        #expect(changed && clusters.tsfOffset(of: cluster) == 900_050)
        // More than a slot behind: the cluster's time is another one now.
        changed = heard(500_000, at: ms(400))
        #expect(changed && clusters.tsfOffset(of: cluster) == 100_000)
    }

    @Test func aDataPathFollowsTheClusterItsPeerBeaconsIn() {
        var clusters = HeardClusters()
        let phones = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x00, 0x01)
        let other = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x00, 0x02)
        let phone = MACAddress(0x02, 0xB0, 0, 0, 0, 2)
        let stranger = MACAddress(0x02, 0xD0, 0, 0, 0, 3)
        #expect(clusters.cluster(of: phone) == nil)
        _ = clusters.heard(clusterID: phones, transmitter: phone, timestamp: 5_000, arrival: ms(1))
        _ = clusters.heard(clusterID: other, transmitter: stranger, timestamp: 9_000, arrival: ms(2))
        #expect(clusters.cluster(of: phone) == phones)
        // Nothing heard from this peer: the cluster heard last.
        #expect(clusters.cluster(of: Self.accessoryAddress) == other)
        // A cluster not heard for a minute is forgotten, unless a data path follows it.
        _ = clusters.heard(clusterID: other, transmitter: stranger, timestamp: 70_000_000, arrival: ms(62_000))
        #expect(clusters.tsfOffset(of: phones) == nil)
        _ = clusters.heard(clusterID: phones, transmitter: phone, timestamp: 5_000, arrival: ms(63_000))
        _ = clusters.heard(
            clusterID: other,
            transmitter: stranger,
            timestamp: 200_000_000,
            arrival: ms(130_000),
            keeping: [phones]
        )
        #expect(clusters.tsfOffset(of: phones) != nil)
    }

    private func ms(_ value: Int64) -> Instant { .zero + .milliseconds(value) }
    private func us(_ value: Int64) -> Instant { .zero + .microseconds(value) }
}
