import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: CSMA/CA contention")
struct SimulatedContentionTests {
    @Test("two backoffs that end in the same slot collide; a receiver hearing both loses both")
    func collision() throws {
        let air = deterministicAir()
        let a = try RecordingStation(air, 1)
        let b = try RecordingStation(air, 2, at: .init(x: 20, y: 0))
        let listener = try RecordingStation(air, 3, at: .init(x: 1, y: 0))
        a.send(to: .broadcast)
        b.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        #expect(listener.receptions.isEmpty)
        // Half duplex: the two senders transmit together and hear neither frame.
        #expect(a.receptions.isEmpty && b.receptions.isEmpty)
        #expect(air.statistics.collisions == 2)
        #expect(air.statistics.collidedReceptions == 2)
    }

    @Test("with the capture effect on, the frame 10 dB stronger survives the overlap")
    func capture() throws {
        let air = deterministicAir(capture: 10)
        let near = try RecordingStation(air, 1)
        let far = try RecordingStation(air, 2, at: .init(x: 20, y: 0))
        let listener = try RecordingStation(air, 3, at: .init(x: 1, y: 0))
        near.send(to: .broadcast)
        far.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        // Near: 1 m, −20 dBm; far: 19 m, −20 − 30 × log10(19) = −58.5 dBm.
        #expect(listener.receptions.map { Array($0.frame[10..<16]) } == [near.address.octets])
    }

    @Test("50 stations sending to one sink at the same instant all get through, in plausible time")
    func fiftyStations() throws {
        let air = SimulatedAir(configuration: .init(seed: 50))
        let sink = try RecordingStation(air, 200)
        var senders: [RecordingStation] = []
        for index in 0..<50 {
            let angle = Double(index) * 0.125
            senders.append(
                try RecordingStation(air, UInt8(index + 1), at: .init(x: 5 * angle.squareRoot(), y: Double(index % 7)))
            )
        }
        for sender in senders { sender.send(to: sink.address, cookie: UInt64(sender.address.octets[5])) }
        air.virtualScheduler.runUntilIdle()
        let statistics = air.statistics
        #expect(senders.allSatisfy { $0.statuses.count == 1 })
        let acknowledged = senders.filter { $0.statuses.first?.acknowledged == true }.count
        #expect(acknowledged == statistics.acknowledged)
        #expect(acknowledged + statistics.unacknowledged == 50)
        #expect(acknowledged == 50)
        // Every acknowledged frame reached the sink exactly once; everything else collided.
        #expect(sink.receptions.count == acknowledged)
        #expect(Set(sink.receptions.map { Array($0.frame[10..<16]) }).count == 50)
        #expect(statistics.collisions > 0)
        #expect(statistics.transmissions == 50 + statistics.retransmissions)
        // Lower bound: 50 exchanges of DIFS 34 + frame 164 + SIFS 16 + ACK 44 = 258 µs back to back.
        let finished = senders.compactMap { $0.statuses.first?.timestamp }
        let end = try #require(finished.max())
        #expect(end >= microseconds(50 * 258))
        // Upper bound: with CW 15 → 31 → 63 the whole crowd clears within a few times that.
        #expect(end < Instant(nanoseconds: 60_000_000))
        // The medium was busy for frames and ACKs, never for more than the time that passed.
        let busy = try #require(statistics.airtime[.channel6])
        #expect(busy.nanoseconds >= Int64(50 * (164 + 44) * 1_000))
        #expect(busy.nanoseconds <= Int64(end.nanoseconds) + Int64(statistics.collisions) * 164_000)
    }

    @Test("broadcasts from a crowd are spread out by backoff: most arrive, none overlap without colliding")
    func crowdBroadcast() throws {
        let air = SimulatedAir(configuration: .init(seed: 4))
        let tap = ListTap()
        air.addTap(tap)
        let listener = try RecordingStation(air, 200)
        var senders: [RecordingStation] = []
        for index in 0..<10 { senders.append(try RecordingStation(air, UInt8(index + 1))) }
        for sender in senders { sender.send(to: .broadcast) }
        air.virtualScheduler.runUntilIdle()
        #expect(tap.seen.count == 10)
        #expect(listener.receptions.count == 10 - air.statistics.collisions)
        let starts = tap.seen.map(\.time)
        #expect(starts == starts.sorted())
        // Frames that do not start together are at least airtime + DIFS apart.
        for (next, previous) in zip(starts.dropFirst(), starts) where next != previous {
            #expect(next - previous >= .microseconds(164 + 34))
        }
    }
}
