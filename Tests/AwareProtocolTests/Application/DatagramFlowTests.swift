import AwareCore
import AwareProtocol
import AwareWire
import Testing

@Suite struct DatagramFlowTests {
    private func stream(_ count: Int, flowID: UInt16 = 3) -> [AppMessage] {
        var sender = DatagramFlow(flowID: flowID)
        return (0..<count).map {
            sender.send([UInt8(truncatingIfNeeded: $0)], now: Instant(nanoseconds: UInt64($0) * 20_000_000))
        }
    }

    @Test func senderStampsSequenceAndTime() {
        var sender = DatagramFlow(flowID: 9)
        let first = sender.send([1], now: Instant(nanoseconds: 5))
        let second = sender.send([2], now: Instant(nanoseconds: 7))
        #expect(first == AppMessage(flowID: 9, sequence: 0, sentAt: 5, body: .datagram([1])))
        #expect(second.sequence == 1 && second.sentAt == 7)
        #expect(sender.statistics.sent == 2)
    }

    @Test func everyThirdDroppedCountsAsLost() {
        var receiver = DatagramFlow(flowID: 3)
        for message in stream(30) where message.sequence % 3 != 2 {
            _ = receiver.receive(message, now: Instant(nanoseconds: message.sentAt + 1_000_000))
        }
        // Sequences 2, 5, ..., 26 are gaps (9); 29 is never followed, so it is not yet known lost.
        #expect(receiver.statistics.received == 20)
        #expect(receiver.statistics.delivered == 20)
        #expect(receiver.statistics.lost == 9)
        #expect(receiver.statistics.reordered == 0)
    }

    @Test func aLateFillOfAGapIsReorderedNotLost() {
        var receiver = DatagramFlow(flowID: 3)
        let messages = stream(4)
        for index in [0, 2, 1, 3] {
            _ = receiver.receive(messages[index], now: Instant(nanoseconds: 100_000_000))
        }
        #expect(receiver.statistics.lost == 0)
        #expect(receiver.statistics.reordered == 1)
        #expect(receiver.statistics.delivered == 4)
    }

    @Test func duplicatesAreDroppedOnce() {
        var receiver = DatagramFlow(flowID: 3)
        let message = stream(1)[0]
        let now = Instant(nanoseconds: 1_000_000)
        #expect(receiver.receive(message, now: now) == .delivered([0], sequence: 0, latency: .milliseconds(1)))
        #expect(receiver.receive(message, now: now) == .duplicate(sequence: 0))
        #expect(receiver.statistics.duplicates == 1 && receiver.statistics.delivered == 1)
    }

    @Test func arrivalsPastTheDeadlineAreDroppedAsLate() {
        var receiver = DatagramFlow(flowID: 3, deadline: .milliseconds(100))
        let messages = stream(2)
        // Sent at 0 and 20 ms; both arrive at 120 ms: 120 ms old (late), 100 ms old (in time).
        let arrival = Instant(nanoseconds: 120_000_000)
        #expect(receiver.receive(messages[0], now: arrival) == .late(sequence: 0, latency: .milliseconds(120)))
        #expect(
            receiver.receive(messages[1], now: arrival) == .delivered([1], sequence: 1, latency: .milliseconds(100))
        )
        #expect(
            receiver.statistics.late == 1 && receiver.statistics.delivered == 1 && receiver.statistics.received == 2
        )
    }

    @Test func otherFlowsAndKindsAreIgnored() {
        var receiver = DatagramFlow(flowID: 4)
        #expect(receiver.receive(stream(1, flowID: 3)[0], now: .zero) == .ignored)
        #expect(
            receiver.receive(AppMessage(flowID: 4, sequence: 0, sentAt: 0, body: .segment([])), now: .zero) == .ignored
        )
        #expect(receiver.statistics == DatagramStatistics())
    }
}
