import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// Two devices with an established data path renegotiate the NDL's schedule on the simulated
/// air (Schedule Request / Response / Confirm, NAF subtypes 10-12) or announce one (Update
/// Notification, 13); the data plane follows the schedule both sides hold.
@Suite struct DataLinkScheduleUpdateTests {
    typealias Bench = DataPathDeviceTests.Bench
    static let bulk = NDPSchedule(mode: .bulk)
    static let everySlot = NDPSchedule(mode: .realtime)

    final class ScheduleEvents {
        var accessory: [DataLinkScheduleEvent] = []
        var phone: [DataLinkScheduleEvent] = []
    }

    /// A secured data path on every slot (realtime), with the schedule events recorded.
    func establish(seed: UInt64) throws -> (Bench, ScheduleEvents) {
        let devices = DataPathDeviceTests()
        let bench = try devices.makeBench(seed: seed, availability: .realtime)
        devices.request(bench, mode: .realtime, security: .pmk(DataPathDeviceTests.pmk, suite: .ncsSK128))
        bench.air.virtualScheduler.run(for: .seconds(5))
        let events = ScheduleEvents()
        bench.accessoryPaths.scheduleEventHandler = { events.accessory.append($0) }
        bench.phonePaths.scheduleEventHandler = { events.phone.append($0) }
        #expect(bench.phonePaths.links.values.first?.schedule == Self.everySlot)
        #expect(bench.accessoryPaths.links.values.first?.schedule == Self.everySlot)
        bench.tap.dataFrames.removeAll()
        return (bench, events)
    }

    static var phone: MACAddress { DataPathDeviceTests.phoneAddress }
    static var accessory: MACAddress { DataPathDeviceTests.accessoryAddress }

    /// Both devices' view of the NDL: the managers' links and the data planes' slots.
    func expectSchedule(_ bench: Bench, _ schedule: NDPSchedule, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bench.phonePaths.schedule(with: Self.accessory) == schedule, sourceLocation: sourceLocation)
        #expect(bench.accessoryPaths.schedule(with: Self.phone) == schedule, sourceLocation: sourceLocation)
        #expect(bench.phone.dataLinks.map(\.slots) == [Set(schedule.slots)], sourceLocation: sourceLocation)
        #expect(bench.accessory.dataLinks.map(\.slots) == [Set(schedule.slots)], sourceLocation: sourceLocation)
    }

    /// 40 frames from the phone after the change all arrive, every one inside `schedule`.
    func expectTraffic(
        _ bench: Bench,
        in schedule: NDPSchedule,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let id = try #require(bench.phonePaths.links.keys.first, sourceLocation: sourceLocation)
        let before = bench.events.delivered.all.count
        let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0xCD, count: 100)
        for _ in 0..<40 { bench.phone.sendData(payload, on: id, category: .bestEffort) }
        bench.air.virtualScheduler.run(for: .seconds(3))
        #expect(bench.events.delivered.all.count - before == 40, sourceLocation: sourceLocation)
        let clock = DataSlotClock(tsfOffsetMicroseconds: bench.phone.cluster?.tsfOffsetMicroseconds ?? 0)
        let slots = Set(schedule.slots)
        #expect(!bench.tap.dataFrames.isEmpty, sourceLocation: sourceLocation)
        for carried in bench.tap.dataFrames {
            #expect(slots.contains(clock.slot(at: carried.time)), sourceLocation: sourceLocation)
        }
    }

    @Test func thePhoneAsksAndTheAccessoryAccepts() throws {
        let (bench, events) = try establish(seed: 31)
        var subtypes: [UInt8] = []
        bench.accessoryPaths.receivedScheduleFrameObserver = { frame in
            if case .nanAction(let naf) = frame.frame.body { subtypes.append(naf.subtype.rawValue) }
        }
        #expect(bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk))
        // One exchange per peer at a time.
        #expect(!bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk))
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(subtypes == [10])
        #expect(events.phone == [.updated(peer: Self.accessory, Self.bulk, requestedByPeer: false)])
        #expect(events.accessory == [.updated(peer: Self.phone, Self.bulk, requestedByPeer: true)])
        expectSchedule(bench, Self.bulk)
        try expectTraffic(bench, in: Self.bulk)
    }

    @Test func theAccessoryAsksAndThePhoneAccepts() throws {
        let (bench, events) = try establish(seed: 32)
        #expect(bench.accessoryPaths.renegotiateSchedule(with: Self.phone, proposal: Self.bulk))
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(events.accessory == [.updated(peer: Self.phone, Self.bulk, requestedByPeer: false)])
        #expect(events.phone == [.updated(peer: Self.accessory, Self.bulk, requestedByPeer: true)])
        expectSchedule(bench, Self.bulk)
        try expectTraffic(bench, in: Self.bulk)
    }

    /// The accessory can do only slots 4-7: it counter-proposes them, the phone confirms.
    @Test func aCounterProposalIsConfirmed() throws {
        let (bench, events) = try establish(seed: 33)
        let offered = NDPSchedule(channel: .channel149, slots: [4, 5, 6, 7])
        bench.accessoryPaths.scheduleAvailability = { _ in offered }
        var subtypes: [UInt8] = []
        bench.accessoryPaths.receivedScheduleFrameObserver = { frame in
            if case .nanAction(let naf) = frame.frame.body { subtypes.append(naf.subtype.rawValue) }
        }
        bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk)
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(subtypes == [10, 12])
        #expect(events.phone == [.updated(peer: Self.accessory, offered, requestedByPeer: false)])
        #expect(events.accessory == [.updated(peer: Self.phone, offered, requestedByPeer: true)])
        expectSchedule(bench, offered)
        try expectTraffic(bench, in: offered)
    }

    /// The counter-proposal is outside what the phone can do: Confirm Rejected, and both keep
    /// the old schedule; traffic goes on in it.
    @Test func aRefusedCounterProposalKeepsTheOldSchedule() throws {
        let (bench, events) = try establish(seed: 34)
        bench.accessoryPaths.scheduleAvailability = { _ in NDPSchedule(channel: .channel149, slots: [20, 21, 22]) }
        bench.phonePaths.scheduleAvailability = { _ in NDPSchedule(channel: .channel149, slots: Array(0..<16)) }
        bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk)
        bench.air.virtualScheduler.run(for: .seconds(1))
        let refused = NDPFailure(.scheduleUnacceptable, reason: .ndlUnacceptable)
        #expect(events.phone == [.failed(peer: Self.accessory, refused, requestedByPeer: false)])
        let rejected = NDPFailure(.rejectedByPeer(.ndlUnacceptable), reason: .ndlUnacceptable)
        #expect(events.accessory == [.failed(peer: Self.phone, rejected, requestedByPeer: true)])
        expectSchedule(bench, Self.everySlot)
        try expectTraffic(bench, in: Self.everySlot)
        // A later exchange with a new dialog token is taken.
        bench.accessoryPaths.scheduleAvailability = nil
        bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk)
        bench.air.virtualScheduler.run(for: .seconds(1))
        expectSchedule(bench, Self.bulk)
    }

    /// An accessory that never answers: three requests, then a timeout; the old schedule stays.
    @Test func anUnansweredRequestTimesOut() throws {
        let (bench, events) = try establish(seed: 35)
        bench.accessoryPaths.answersScheduleRequests = false
        var requests = 0
        bench.accessoryPaths.receivedScheduleFrameObserver = { _ in requests += 1 }
        bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk)
        bench.air.virtualScheduler.run(for: .seconds(4))
        #expect(requests == 3)
        let timeout = NDPFailure(.timeout(.awaitingScheduleResponse))
        #expect(events.phone == [.failed(peer: Self.accessory, timeout, requestedByPeer: false)])
        expectSchedule(bench, Self.everySlot)
    }

    /// Both ask at the same instant: the lower NMI (the accessory's) keeps its request, the
    /// phone gives way and answers it; both end on the accessory's proposal.
    @Test func whenBothAskAtOnceTheLowerNMIWins() throws {
        let (bench, events) = try establish(seed: 37)
        let wanted = NDPSchedule(channel: .channel149, slots: [4, 5, 6, 7])
        #expect(bench.accessoryPaths.renegotiateSchedule(with: Self.phone, proposal: wanted))
        #expect(bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk))
        bench.air.virtualScheduler.run(for: .seconds(4))
        #expect(
            events.phone == [
                .failed(peer: Self.accessory, NDPFailure(.supersededByPeer), requestedByPeer: false),
                .updated(peer: Self.accessory, wanted, requestedByPeer: true),
            ]
        )
        #expect(events.accessory == [.updated(peer: Self.phone, wanted, requestedByPeer: false)])
        expectSchedule(bench, wanted)
        // The next exchange takes a new token on both sides.
        #expect(bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk))
        bench.air.virtualScheduler.run(for: .seconds(1))
        expectSchedule(bench, Self.bulk)
    }

    /// The data path ends: a running exchange with its peer goes with it.
    @Test func aTerminationDropsTheExchange() throws {
        let (bench, events) = try establish(seed: 38)
        bench.accessoryPaths.answersScheduleRequests = false
        bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk)
        let id = try #require(bench.phonePaths.links.keys.first)
        bench.phonePaths.terminate(id)
        bench.air.virtualScheduler.run(for: .seconds(4))
        #expect(events.phone.isEmpty)
        #expect(!bench.phonePaths.renegotiateSchedule(with: Self.accessory, proposal: Self.bulk))
    }

    /// The accessory announces bulk: the phone's view (and its data plane) moves to it.
    @Test func anUpdateNotificationMovesThePeersView() throws {
        let (bench, events) = try establish(seed: 36)
        #expect(bench.accessoryPaths.notifyScheduleUpdate(to: Self.phone, committed: Self.bulk))
        #expect(
            !bench.accessoryPaths.notifyScheduleUpdate(to: MACAddress(0x02, 0xC0, 0, 0, 0, 0x09), committed: Self.bulk)
        )
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(events.phone == [.notified(peer: Self.accessory, Self.bulk)])
        #expect(events.accessory.isEmpty)
        expectSchedule(bench, Self.bulk)
        try expectTraffic(bench, in: Self.bulk)
    }
}
