import AwareCore
import AwareWire
import Testing

@testable import AwareRadio

/// A scripted impairer: what to do with each attempt, and how long to hold frames back.
final class ScriptedImpairer: FrameImpairer {
    var decide: (_ frame: [UInt8], _ origin: FrameOrigin, _ attempt: Int) -> FrameImpairment
    var delay: Interval?
    private(set) var asked: [(origin: FrameOrigin, attempt: Int)] = []

    init(delay: Interval? = nil, decide: @escaping ([UInt8], FrameOrigin, Int) -> FrameImpairment) {
        self.delay = delay
        self.decide = decide
    }

    func holdBack(_ frame: [UInt8], from origin: FrameOrigin, at time: Instant) -> Interval? { delay }

    func impairment(of frame: [UInt8], from origin: FrameOrigin, attempt: Int, at time: Instant) -> FrameImpairment {
        asked.append((origin, attempt))
        return decide(frame, origin, attempt)
    }
}

@Suite("Simulated air: impairments a test declares (fault plans)")
struct SimulatedImpairmentTests {
    @Test("a lost first attempt is not acknowledged; the retry, with its Retry bit, is, one slot time later")
    func lostFirstAttempt() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2, at: .init(x: 2, y: 0))
        let impairer = ScriptedImpairer { _, _, attempt in attempt == 1 ? .lost : .intact }
        air.impairer = impairer
        sender.send(to: receiver.address, cookie: 5)
        air.virtualScheduler.runUntilIdle()
        // Both transmissions are on the air (the sniffer hears them); the receiver gets one.
        #expect(tap.seen.count == 2)
        #expect(tap.seen.last?.frame[1] == 0x08)
        #expect(receiver.receptions.count == 1)
        // As with any loss: frame 34..198 µs, retry 164 + 52 µs later (see unicastUnacknowledged),
        // then SIFS and the ACK.
        #expect(sender.statuses.map(\.acknowledged) == [true])
        #expect(receiver.receptions.first?.info.timestamp == microseconds(198 + 216))
        #expect(impairer.asked.map(\.attempt) == [1, 2])
        #expect(impairer.asked.allSatisfy { $0.origin == .local(name: "station 1") })
        #expect(air.statistics.impairedTransmissions == 1)
        #expect(air.statistics.retransmissions == 1)
    }

    @Test("an altered frame is what receivers and the sniffer get")
    func alteredFrame() throws {
        let air = deterministicAir()
        let tap = ListTap()
        air.addTap(tap)
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2)
        air.impairer = ScriptedImpairer { frame, _, _ in
            var changed = frame
            changed[changed.count - 1] ^= 0xFF
            return .altered(changed)
        }
        sender.send(to: .broadcast, cookie: 1)
        air.virtualScheduler.runUntilIdle()
        var expected = testFrame(to: .broadcast, from: sender.address)
        expected[expected.count - 1] ^= 0xFF
        #expect(receiver.receptions.map(\.frame) == [expected])
        #expect(tap.seen.map(\.frame) == [expected])
    }

    @Test("a held-back frame goes on the air that much later")
    func heldBack() throws {
        let air = deterministicAir()
        let sender = try RecordingStation(air, 1)
        let receiver = try RecordingStation(air, 2)
        air.impairer = ScriptedImpairer(delay: .milliseconds(300)) { _, _, _ in .intact }
        sender.send(to: .broadcast, cookie: 1)
        air.virtualScheduler.runUntilIdle()
        // Queued at 300 ms on an idle medium: it arrives its airtime (164 µs) plus at most the
        // access delay of a frame queued at 0 (34 µs) later.
        let arrival = try #require(receiver.receptions.first?.info.timestamp)
        #expect(arrival >= microseconds(300_000 + 164) && arrival <= microseconds(300_000 + 198))
        #expect(receiver.receptions.count == 1)
        #expect(air.statistics.heldBackFrames == 1)
    }
}
