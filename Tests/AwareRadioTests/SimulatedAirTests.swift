import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

@Suite("Simulated air: stations, channels, ACKs, loss")
struct SimulatedAirTests {
    @Test("a second station with an address already on the air is refused")
    func addressInUse() throws {
        let air = SimulatedAir()
        _ = try RecordingStation(air, 1)
        let duplicate = MACAddress(0x02, 0x00, 0x00, 0x00, 0x00, 0x01)
        #expect(throws: AirError.addressInUse(duplicate)) {
            _ = try air.attach(
                StationConfiguration(addresses: [duplicate], name: "twin"),
                receive: { _ in },
                transmitted: { _ in }
            )
        }
        let twice = MACAddress(0x02, 0x00, 0x00, 0x00, 0x00, 0x07)
        #expect(throws: AirError.addressInUse(twice)) {
            _ = try air.attach(
                StationConfiguration(addresses: [twice, twice], name: "x"),
                receive: { _ in },
                transmitted: { _ in }
            )
        }
        #expect(air.stations.count == 1)
    }

    @Test("a frame is heard only on its channel, and not by a station listening nowhere")
    func channelIsolation() throws {
        let air = SimulatedAir()
        let sender = try RecordingStation(air, 1)
        let on6 = try RecordingStation(air, 2, channels: [.channel6])
        let on149 = try RecordingStation(air, 3, channels: [.channel149])
        let both = try RecordingStation(air, 4, channels: [.channel6, .channel149])
        let deaf = try RecordingStation(air, 5, channels: [])
        sender.send(to: .broadcast, on: .channel149, cookie: 1)
        air.virtualScheduler.runUntilIdle()
        #expect(on6.receptions.isEmpty)
        #expect(on149.receptions.map(\.info.channel) == [.channel149])
        #expect(both.receptions.count == 1)
        #expect(deaf.receptions.isEmpty)
        #expect(on149.receptions.first?.frame == testFrame(to: .broadcast, from: sender.address))
    }

    @Test("a station that hops away mid-frame loses it, even if it hops back before the end")
    func hopMidFrame() throws {
        let air = deterministicAir()
        let sender = try RecordingStation(air, 1)
        let stays = try RecordingStation(air, 2)
        let leaves = try RecordingStation(air, 3)
        let returns = try RecordingStation(air, 4)
        let arrives = try RecordingStation(air, 5, channels: [.channel149])
        sender.send(to: .broadcast)
        // The frame is on the air from 34 µs to 198 µs.
        air.virtualScheduler.schedule(at: microseconds(100)) {
            leaves.port.listeningChannels = [.channel149]
            returns.port.listeningChannels = [.channel149]
            arrives.port.listeningChannels = [.channel6]
        }
        air.virtualScheduler.schedule(at: microseconds(150)) { returns.port.listeningChannels = [.channel6] }
        air.virtualScheduler.runUntilIdle()
        #expect(stays.receptions.count == 1)
        #expect(leaves.receptions.isEmpty)
        #expect(returns.receptions.isEmpty)
        #expect(arrives.receptions.isEmpty)
        #expect(air.statistics.missedReceptions == 2)
    }

    @Test("a unicast frame to a station is acknowledged SIFS + ACK after it arrives, and only it hears it")
    func unicastAcknowledged() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 2, y: 0))
        let bystander = try RecordingStation(air, 3, at: .init(x: 1, y: 0))
        sender.send(to: receiver.address, cookie: 42)
        air.virtualScheduler.runUntilIdle()
        #expect(receiver.receptions.map(\.info.timestamp) == [microseconds(198)])
        #expect(bystander.receptions.isEmpty)
        // 198 µs + SIFS 16 µs + ACK 44 µs = 258 µs.
        #expect(sender.statuses == [TxStatus(cookie: 42, acknowledged: true, timestamp: microseconds(258))])
        #expect(tap.seen.count == 1)
        #expect(air.statistics.acknowledged == 1)
        #expect(air.statistics.airtime[.channel6] == .microseconds(164 + 44))
    }

    @Test("a unicast frame to nobody is sent 7 times, retries marked, then reported unacknowledged")
    func unicastUnacknowledged() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let absent = MACAddress(0x02, 0x00, 0x00, 0x00, 0x00, 0x99)
        sender.send(to: absent, cookie: 9)
        air.virtualScheduler.runUntilIdle()
        #expect(tap.seen.count == 7)
        let original = testFrame(to: absent, from: sender.address)
        #expect(tap.seen.first?.frame == original)
        var retry = original
        retry[1] = 0x08
        #expect(tap.seen.dropFirst().allSatisfy { $0.frame == retry })
        // Each retry: the frame ends, the ACK timeout (45 µs) runs out, and counting
        // resumes on the slot grid DIFS after the frame: 34 + 2 slots = 52 µs ≥ 45 µs.
        let gaps = zip(tap.seen.dropFirst(), tap.seen).map { $0.time - $1.time }
        #expect(gaps.allSatisfy { $0 == .microseconds(164 + 52) })
        let last = try #require(tap.seen.last).time
        #expect(
            sender.statuses == [TxStatus(cookie: 9, acknowledged: false, timestamp: last + .microseconds(164 + 45))]
        )
        #expect(air.statistics.transmissions == 7)
        #expect(air.statistics.retransmissions == 6)
        #expect(air.statistics.unacknowledged == 1)
    }

    @Test("the retry limit counts transmissions; Retry-bit marking can be turned off")
    func retryLimit() throws {
        var configuration = SimulatedAir.Configuration(retryLimit: 3, marksRetransmissions: false)
        configuration.contention = ContentionParameters(cwMin: 0, cwMax: 0)
        let air = SimulatedAir(configuration: configuration)
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        sender.send(to: MACAddress(0x02, 0, 0, 0, 0, 0x50))
        air.virtualScheduler.runUntilIdle()
        #expect(tap.seen.count == 3)
        #expect(Set(tap.seen.map(\.frame)).count == 1)
    }

    @Test("a group-addressed frame is never acknowledged and reports when it ends")
    func groupStatus() throws {
        let air = deterministicAir()
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2)
        sender.send(to: .nanNetworkID, cookie: 5)
        air.virtualScheduler.runUntilIdle()
        #expect(receiver.receptions.count == 1)
        #expect(sender.statuses == [TxStatus(cookie: 5, acknowledged: false, timestamp: microseconds(198))])
    }

    @Test("a station's frames go out one at a time, in order, each after its predecessor's status")
    func queueOrder() throws {
        let air = deterministicAir()
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2)
        for cookie in 1...3 { sender.send(to: receiver.address, cookie: UInt64(cookie)) }
        air.virtualScheduler.runUntilIdle()
        #expect(sender.statuses.map(\.cookie) == [1, 2, 3])
        #expect(sender.statuses.allSatisfy { $0.acknowledged })
        // Each exchange: DIFS 34 + frame 164 + SIFS 16 + ACK 44 = 258 µs.
        #expect(sender.statuses.map(\.timestamp) == [microseconds(258), microseconds(516), microseconds(774)])
    }

    @Test("a station that queues while the channel is busy defers until DIFS after it falls idle")
    func deferral() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let first = try RecordingStation(air, 1)
        let second = try RecordingStation(air, 2)
        first.send(to: .broadcast)
        air.virtualScheduler.schedule(at: microseconds(100)) { second.send(to: .broadcast) }
        air.virtualScheduler.runUntilIdle()
        // First frame 34–198 µs; the second waits for 198 + 34 = 232 µs.
        #expect(tap.seen.map(\.time) == [microseconds(34), microseconds(232)])
        #expect(air.statistics.collisions == 0)
    }

    @Test("loss: probability 1 silences every link; a per-link override silences only its link")
    func loss() throws {
        let air = SimulatedAir()
        let sender = try RecordingStation(air, 1)
        let a = try RecordingStation(air, 2)
        let b = try RecordingStation(air, 3)
        air.setLoss(from: sender.address, to: a.address, probability: 1)
        sender.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        #expect(a.receptions.isEmpty)
        #expect(b.receptions.count == 1)
        air.setLoss(from: sender.address, to: a.address, probability: nil)
        air.setLoss(probability: 1)
        sender.send(to: a.address)
        air.virtualScheduler.runUntilIdle()
        #expect(a.receptions.isEmpty)
        #expect(sender.statuses.last?.acknowledged == false)
        #expect(air.statistics.transmissions == 1 + 7)
        #expect(air.statistics.lostReceptions == 1 + 7)
        air.setLoss(probability: 0)
        sender.send(to: a.address)
        air.virtualScheduler.runUntilIdle()
        #expect(a.receptions.count == 1)
        #expect(sender.statuses.last?.acknowledged == true)
    }

    @Test("a loss probability of one half loses about half the frames, the same ones for the same seed")
    func partialLoss() throws {
        func run(seed: UInt64) throws -> [UInt8] {
            let air = SimulatedAir(configuration: .init(seed: seed, frameErrorProbability: 0.5))
            let sender = try RecordingStation(air, 1)
            let receiver = try RecordingStation(air, 2)
            for index in 0..<400 {
                sender.port.transmit(
                    TxRequest(
                        frame: testFrame(to: .broadcast, from: sender.address) + [UInt8(index % 256)],
                        channel: .channel6
                    )
                )
            }
            air.virtualScheduler.runUntilIdle()
            return receiver.receptions.map { $0.frame.last ?? 0 }
        }
        let heard = try run(seed: 11)
        #expect((150...250).contains(heard.count))
        #expect(try run(seed: 11) == heard)
        #expect(try run(seed: 12) != heard)
    }

    @Test("a detached station hears nothing more and its queued frames are dropped")
    func detach() throws {
        let air = SimulatedAir()
        let sender = try RecordingStation(air, 1)
        let leaver = try RecordingStation(air, 2)
        leaver.send(to: .broadcast)
        leaver.port.detach()
        sender.send(to: .broadcast)
        air.virtualScheduler.runUntilIdle()
        #expect(leaver.receptions.isEmpty)
        #expect(leaver.statuses.isEmpty)
        #expect(air.statistics.transmissions == 1)
        // Its address is free again.
        _ = try RecordingStation(air, 2)
    }
}
