import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

@testable import AwareDevice

/// Issue 14, point 3: whoever anchors the cluster, both sides of a data path count its committed
/// slots from the cluster's TSF and are awake in every one of them, on the simulated air with
/// virtual time. The devices' own TSF timers stand apart
/// (``SynchronizationConfiguration/ownTSFOffsetMicroseconds``), as two radios' do: with one
/// shared virtual clock and no offsets, a device that took its own clock for the cluster's
/// would go unnoticed, as it did until an accessory that discovers with USD met a phone in
/// another process.
@Suite struct DataSlotAgreementTests {
    static let accessoryAddress = MACAddress(0x02, 0xA0, 0, 0, 0, 0x01)
    static let phoneAddress = MACAddress(0x02, 0xB0, 0, 0, 0, 0x02)
    static let slot = DataSlotClock.slotMicroseconds
    /// Where the phone's own TSF timer stands: 7 periods, 5 slots and a half past the scheduler's
    /// clock, so a device counting slots from its own clock is off by slots and by half a slot.
    static let phoneTSF = 7 * DataSlotClock.periodMicroseconds + 5 * slot + slot / 2
    /// The accessory's: 3 periods, 19 slots and a quarter.
    static let accessoryTSF = 3 * DataSlotClock.periodMicroseconds + 19 * slot + slot / 4
    /// The bulk schedule: 1, 2, 9, 10, 17, 18, 25 and 26, neither all slots nor slot 8 (the 5 GHz
    /// discovery window, where a synchronized device is on channel 149 anyway).
    static let committed = Set(PerformanceMode.bulk.availableSlots)

    enum Setup: String, CaseIterable, CustomTestStringConvertible {
        /// The phone forms the cluster; the synchronized accessory joins it.
        case phoneAnchorsSynchronizedAccessory
        /// The phone forms the cluster; the accessory discovers with USD and follows it.
        case phoneAnchorsUnsynchronizedAccessory
        /// The accessory forms the cluster and stays its anchor master; the phone joins it.
        case accessoryAnchors

        var testDescription: String { rawValue }
        var accessorySynchronized: Bool { self != .phoneAnchorsUnsynchronizedAccessory }
        var phoneAnchors: Bool { self != .accessoryAnchors }
    }

    final class Tap: AirTap {
        var frames: [(frame: [UInt8], time: Instant, channel: NANChannel)] = []
        func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
            frames.append((frame, time, channel))
        }

        /// Data frames (type 2) from `transmitter` (A2).
        func dataFrames(from transmitter: MACAddress) -> [(frame: [UInt8], time: Instant)] {
            frames.filter { $0.frame[0] & 0x0C == 0x08 && MACAddress($0.frame[10..<16]) == transmitter }
                .map { ($0.frame, $0.time) }
        }
    }

    struct Bench {
        let air: SimulatedAir
        let phone: NANDevice
        let accessory: NANDevice
        let tap: Tap
        let delivered: Delivered

        struct Delivered {
            let phone = DataDeliveries()
            let accessory = DataDeliveries()
        }

        var anchorCluster: ClusterStatus? { phone.cluster?.isAnchorMaster == true ? phone.cluster : accessory.cluster }
    }

    /// The anchor starts first and forms the cluster (after its 2.1 s scan); the other device
    /// starts 3 s later and joins it (or, with USD, hears its beacons).
    func makeBench(_ setup: Setup, seed: UInt64) throws -> Bench {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: seed))
        let tap = Tap()
        air.addTap(tap)
        let phone = NANDevice(
            configuration: NANDevice.Configuration(
                name: "phone",
                address: Self.phoneAddress,
                position: .init(x: 3, y: 0),
                synchronization: SynchronizationConfiguration(
                    address: Self.phoneAddress,
                    masterPreference: setup.phoneAnchors ? 128 : 1,
                    ownTSFOffsetMicroseconds: Self.phoneTSF
                )
            ),
            air: air,
            seed: seed &+ 2
        )
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(
                name: "accessory",
                address: Self.accessoryAddress,
                synchronization: setup.accessorySynchronized
                    ? SynchronizationConfiguration(
                        address: Self.accessoryAddress,
                        masterPreference: setup.phoneAnchors ? 2 : 200,
                        ownTSFOffsetMicroseconds: Self.accessoryTSF
                    ) : nil
            ),
            air: air,
            seed: seed &+ 1
        )
        let delivered = Bench.Delivered()
        phone.dataReceiver = delivered.phone
        accessory.dataReceiver = delivered.accessory
        let (first, second) = setup.phoneAnchors ? (phone, accessory) : (accessory, phone)
        try first.start()
        air.virtualScheduler.run(for: .seconds(3))
        try second.start()
        air.virtualScheduler.run(for: .seconds(5))
        return Bench(air: air, phone: phone, accessory: accessory, tap: tap, delivered: delivered)
    }

    func link(from device: NANDevice, to peer: NANDevice, clusterID: MACAddress) -> DataLinkConfiguration {
        DataLinkConfiguration(
            id: DataLinkID(peerNMI: peer.configuration.address, ndpID: 1),
            localNDI: device.configuration.dataInterfaceAddress,
            peerNDI: peer.configuration.dataInterfaceAddress,
            clusterID: clusterID,
            key: [],
            cipher: nil,
            channel: .channel149,
            slots: Self.committed
        )
    }

    @Test(arguments: Setup.allCases)
    func theClusterIsAnchoredAsSetUpAndBothSidesCountSlotsFromItsTSF(_ setup: Setup) throws {
        let bench = try makeBench(setup, seed: 41)
        let anchor = try #require(bench.anchorCluster)
        #expect(anchor.isAnchorMaster)
        #expect((bench.phone.cluster?.isAnchorMaster == true) == setup.phoneAnchors)
        #expect(anchor.tsfOffsetMicroseconds == (setup.phoneAnchors ? Self.phoneTSF : Self.accessoryTSF))
        if setup.accessorySynchronized {
            #expect(bench.accessory.cluster?.clusterID == bench.phone.cluster?.clusterID)
        }
        bench.phone.openDataLink(link(from: bench.phone, to: bench.accessory, clusterID: anchor.clusterID))
        bench.accessory.openDataLink(link(from: bench.accessory, to: bench.phone, clusterID: anchor.clusterID))
        let phoneClock = try #require(
            bench.phone.dataSlotClock(for: DataLinkID(peerNMI: Self.accessoryAddress, ndpID: 1))
        )
        let accessoryClock = try #require(
            bench.accessory.dataSlotClock(for: DataLinkID(peerNMI: Self.phoneAddress, ndpID: 1))
        )
        // One virtual clock: the same TSF, give or take a beacon's channel access and airtime,
        // well inside the data plane's guard time (1 ms).
        let apart = abs(phoneClock.tsfOffsetMicroseconds - accessoryClock.tsfOffsetMicroseconds)
        #expect(apart < 500, "the two sides' TSFs are \(apart) µs apart")
        #expect(abs(phoneClock.tsfOffsetMicroseconds - anchor.tsfOffsetMicroseconds) < 500)
    }

    /// The probe: a frame sent once in each committed slot of 32 consecutive ones (by the
    /// anchor's TSF) is acknowledged at its first transmission, in that slot; and the receiver is
    /// on the data channel in the middle of every committed slot.
    @Test(arguments: Setup.allCases, [true, false])
    func aFrameSentInEachCommittedSlotIsAcknowledgedInIt(_ setup: Setup, phoneSends: Bool) throws {
        let bench = try makeBench(setup, seed: 42)
        let anchor = try #require(bench.anchorCluster)
        let (sender, receiver) = phoneSends ? (bench.phone, bench.accessory) : (bench.accessory, bench.phone)
        sender.openDataLink(link(from: sender, to: receiver, clusterID: anchor.clusterID))
        receiver.openDataLink(link(from: receiver, to: sender, clusterID: anchor.clusterID))
        let id = DataLinkID(peerNMI: receiver.configuration.address, ndpID: 1)
        let truth = DataSlotClock(tsfOffsetMicroseconds: anchor.tsfOffsetMicroseconds)
        // From the next period's slot 0 on, mid-slot by the anchor's clock.
        var start = truth.nextSlotStart(after: sender.now)
        while truth.slot(at: start) != 0 { start = start + .microseconds(Self.slot) }
        var listening: [Int: Set<NANChannel>] = [:]
        for index in 0..<32 {
            let middle = start + .microseconds(Int64(index) * Self.slot + Self.slot / 2)
            sender.scheduler.schedule(at: middle) {
                listening[index] = receiver.port?.listeningChannels ?? []
                if Self.committed.contains(index) {
                    sender.sendData(LLCSNAPHeader.ipv6.wireBytes + [UInt8(index)], on: id, category: .bestEffort)
                }
            }
        }
        bench.air.virtualScheduler.run(until: start + .microseconds(33 * Self.slot))

        for index in 0..<32 {
            let onData = listening[index]?.contains(.channel149) == true
            if Self.committed.contains(index) {
                #expect(onData, "slot \(index): the receiver is not on channel 149")
            } else if receiver.configuration.synchronization == nil || index != 8 {
                // Slot 8 is the 5 GHz discovery window, on channel 149 for a synchronized device.
                #expect(!onData, "slot \(index): the receiver is on channel 149 outside the schedule")
            }
        }
        let sent = bench.tap.dataFrames(from: sender.configuration.dataInterfaceAddress)
        #expect(sent.count == Self.committed.count, "transmissions: \(sent.map { truth.slot(at: $0.time) })")
        #expect(Set(sent.map { truth.slot(at: $0.time) }) == Self.committed)
        let delivered = phoneSends ? bench.delivered.accessory : bench.delivered.phone
        #expect(delivered.all.map { Int($0.payload.last ?? 0xFF) }.sorted() == Self.committed.sorted())
        let statistics = try #require(sender.dataLinkStatistics(id))
        #expect(statistics.framesDelivered == Self.committed.count)
        #expect(statistics.framesFailed == 0)
    }

    /// A data path opened before an unsynchronized device heard its cluster's beacons keeps the
    /// receiver on the data channel (it does not know the slots yet) and sends nothing; the
    /// first beacon sets the slots.
    @Test func anUnsynchronizedDeviceWaitsForItsClustersTimeBeforeItSends() throws {
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: 43))
        let tap = Tap()
        air.addTap(tap)
        let accessory = NANDevice(
            configuration: NANDevice.Configuration(name: "accessory", address: Self.accessoryAddress),
            air: air,
            seed: 44
        )
        try accessory.start()
        let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0xBE, 0xEF)
        let phoneNDI = NANDevice.Configuration.defaultDataInterfaceAddress(for: Self.phoneAddress)
        let id = DataLinkID(peerNMI: Self.phoneAddress, ndpID: 1)
        accessory.openDataLink(
            DataLinkConfiguration(
                id: id,
                localNDI: accessory.configuration.dataInterfaceAddress,
                peerNDI: phoneNDI,
                clusterID: cluster,
                key: [],
                cipher: nil,
                channel: .channel149,
                slots: Self.committed
            )
        )
        accessory.sendData(LLCSNAPHeader.ipv6.wireBytes + [1], on: id, category: .bestEffort)
        air.virtualScheduler.run(for: .seconds(1))
        #expect(accessory.dataSlotClock(for: id) == nil)
        #expect(accessory.port?.listeningChannels == [.channel6, .channel149])
        #expect(tap.dataFrames(from: accessory.configuration.dataInterfaceAddress).isEmpty)
        #expect(accessory.queuedDataFrames == 1)
    }
}
