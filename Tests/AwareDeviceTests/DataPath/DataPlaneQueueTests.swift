import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Testing

/// The data plane's queues: several frames of a data path in the air's hands at once, a
/// constant amount of work per frame however long the queues grow, and streams whose frames
/// are made only when they go.
@Suite struct DataPlaneQueueTests {
    let support = DataPathDeviceTests()

    /// A bench with an established, secured data path in `mode`.
    func open(
        seed: UInt64,
        mode: PerformanceMode,
        air: SimulatedAir.Configuration? = nil
    ) throws -> (
        DataPathDeviceTests.Bench, DataLinkID
    ) {
        let bench = try support.makeBench(seed: seed, availability: mode, air: air)
        support.request(bench, mode: mode, security: .pmk(DataPathDeviceTests.pmk, suite: .ncsSK128))
        bench.air.virtualScheduler.run(for: .seconds(5))
        let id = try #require(bench.phonePaths.links.keys.first)
        return (bench, id)
    }

    /// Runs the air until the middle of a realtime window (not slot 0 nor next to it).
    func runToOpenWindow(_ bench: DataPathDeviceTests.Bench) {
        let clock = DataSlotClock(tsfOffsetMicroseconds: bench.phone.cluster?.tsfOffsetMicroseconds ?? 0)
        while !(4...28).contains(clock.slot(at: bench.phone.now)) {
            bench.air.virtualScheduler.run(for: .milliseconds(5))
        }
    }

    @Test func aDataPathHandsSeveralFramesToTheAirAtOnce() throws {
        let (bench, id) = try open(seed: 21, mode: .realtime)
        runToOpenWindow(bench)
        let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0x5A, count: 200)
        for _ in 0..<40 { bench.phone.sendData(payload, on: id, category: .bestEffort) }
        // The hardware queue takes 32 at once; the rest wait in the category's queue.
        #expect(bench.phone.dataFramesInFlight(id) == 32)
        #expect(bench.phone.queuedDataFrames == 8)
        bench.air.virtualScheduler.run(for: .seconds(1))
        #expect(bench.phone.dataFramesInFlight(id) == 0)
        let sent = try #require(bench.phone.dataLinkStatistics(id))
        let received = try #require(bench.accessory.dataLinkStatistics(id.reversed(bench)))
        #expect(sent.framesDelivered == 40)
        #expect(received.framesReceived == 40)
        #expect(received.replaysDropped == 0)
    }

    @Test func retriesWithSeveralFramesInFlightPassTheReceiversReplayCheck() throws {
        var configuration = SimulatedAir.Configuration(seed: 22)
        configuration.frameErrorProbability = 0.2
        configuration.retryLimit = 1
        let (bench, id) = try open(seed: 22, mode: .realtime, air: configuration)
        runToOpenWindow(bench)
        for index in 0..<120 {
            let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8(index & 0xFF)] + [UInt8](repeating: 1, count: 300)
            bench.phone.sendData(payload, on: id, category: .bestEffort)
        }
        bench.air.virtualScheduler.run(for: .seconds(2))
        let sent = try #require(bench.phone.dataLinkStatistics(id))
        let received = try #require(bench.accessory.dataLinkStatistics(id.reversed(bench)))
        // Frames the air gave up on went again (new sequence and packet numbers, in the order
        // they were handed to the air); the receiver rejected none as a replay.
        #expect(sent.framesDelivered + sent.framesFailed == 120)
        #expect(sent.framesDelivered > 100)
        #expect(received.replaysDropped == 0)
        #expect(received.framesReceived >= sent.framesDelivered)
    }

    @Test func thePumpLooksAtEachFrameAConstantNumberOfTimes() throws {
        let (bench, id) = try open(seed: 23, mode: .bulk)
        let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0x11, count: 1_000)
        let before = bench.phone.dataPumpWork
        // 1 500 frames queued at once, most of them waiting for bulk windows (at 6 Mb/s, about
        // 18 per window): a pump that rescans every waiting frame for every TX status looks
        // about a million times.
        for _ in 0..<1_500 { bench.phone.sendData(payload, on: id, category: .bestEffort) }
        bench.air.virtualScheduler.run(for: .seconds(15))
        let statistics = try #require(bench.phone.dataLinkStatistics(id))
        #expect(statistics.framesDelivered == 1_500)
        let work = bench.phone.dataPumpWork
        let examined = work.framesExamined - before.framesExamined
        let passes = work.passes - before.passes
        #expect(examined <= 3 * 1_500, "frames examined: \(examined)")
        #expect(passes <= 3 * 1_500, "passes: \(passes)")
    }

    @Test func aStreamMakesOnlyTheFramesItSends() throws {
        let (bench, id) = try open(seed: 24, mode: .bulk)
        var made = 0
        let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0x42, count: 1_400)
        // 1 400-octet frames at 2 kHz for 2 s, 200 ms to live: far more than bulk carries.
        let stream = bench.phone.offerDataStream(
            on: id,
            category: .bestEffort,
            first: bench.phone.now,
            period: .microseconds(500),
            count: 4_000,
            lifetime: .milliseconds(200)
        ) { _, _ in
            made += 1
            return payload
        }
        #expect(stream != nil)
        bench.air.virtualScheduler.run(for: .seconds(3))
        let statistics = try #require(bench.phone.dataLinkStatistics(id))
        #expect(statistics.framesOffered == 4_000)
        #expect(statistics.framesExpired > 1_000)
        #expect(statistics.framesDelivered + statistics.framesExpired + statistics.framesFailed == 4_000)
        // Every frame made went to the air; none was made only to expire.
        #expect(made == statistics.framesDelivered + statistics.framesFailed)
        let received = try #require(bench.accessory.dataLinkStatistics(id.reversed(bench)))
        #expect(received.framesReceived == statistics.framesDelivered)
        #expect(received.replaysDropped == 0)
    }

    @Test func aStreamKeepsItsPlaceInItsCategorysQueue() throws {
        let (bench, id) = try open(seed: 25, mode: .bulk)
        let delivered = DataDeliveries()
        bench.accessory.dataReceiver = delivered
        let header = LLCSNAPHeader.ipv6.wireBytes
        let start = bench.phone.now
        bench.phone.sendData(header + [1], on: id, category: .bestEffort)
        bench.phone.offerDataStream(
            on: id,
            category: .bestEffort,
            first: start + .microseconds(10),
            period: .microseconds(20),
            count: 2,
            lifetime: nil
        ) { index, _ in header + [UInt8(10 + index)] }
        bench.phone.scheduler.schedule(at: start + .microseconds(35)) {
            bench.phone.sendData(header + [2], on: id, category: .bestEffort)
        }
        bench.air.virtualScheduler.run(for: .seconds(1))
        // Queued at 0, 10, 30 and 35 µs: sent in that order, whenever the window opened.
        #expect(delivered.all.map { $0.payload.last ?? 0 } == [1, 10, 11, 2])
    }

    @Test func aSeedReproducesTheDataFramesBitForBit() throws {
        func run() throws -> [([UInt8], Instant)] {
            let (bench, id) = try open(seed: 26, mode: .bulk)
            let payload = LLCSNAPHeader.ipv6.wireBytes + [UInt8](repeating: 0x33, count: 900)
            bench.phone.offerDataStream(
                on: id,
                category: .video,
                first: bench.phone.now,
                period: .milliseconds(1),
                count: 1_500,
                lifetime: .milliseconds(200)
            ) { _, _ in payload }
            for _ in 0..<100 { bench.phone.sendData(payload, on: id, category: .bestEffort) }
            bench.air.virtualScheduler.run(for: .seconds(2))
            return bench.tap.dataFrames.map { ($0.frame, $0.time) }
        }
        let first = try run()
        let second = try run()
        #expect(first.count > 300)
        #expect(first.count == second.count)
        #expect(zip(first, second).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    }
}

extension DataLinkID {
    /// The same data path as its other end names it.
    func reversed(_ bench: DataPathDeviceTests.Bench) -> DataLinkID {
        DataLinkID(peerNMI: DataPathDeviceTests.phoneAddress, ndpID: ndpID)
    }
}
