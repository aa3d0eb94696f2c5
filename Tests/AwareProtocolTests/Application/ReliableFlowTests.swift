import AwareCore
import AwareProtocol
import AwareWire
import Testing

@Suite struct ReliableFlowTests {
    private let payloads = (0..<100).map { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }

    @Test func aCleanLinkDeliversInOrderWithoutRetransmission() {
        var link = ReliableLink(configuration: ReliableConfiguration(window: 8))
        link.send(payloads)
        link.run()
        #expect(link.delivered == payloads)
        #expect(link.sender.retransmissions == 0)
        #expect(link.maximumInFlight == 8)
        #expect(link.sender.isIdle && link.timer == nil)
    }

    @Test func everyFifthSegmentDropped() {
        var link = ReliableLink(configuration: ReliableConfiguration(window: 8))
        link.dropData = { $0 % 5 == 4 }
        link.send(payloads)
        link.run()
        #expect(link.delivered == payloads)
        #expect(link.sender.retransmissions > 0)
        #expect(link.failures.isEmpty)
    }

    @Test func aBurstOfLossesInBothDirections() {
        var link = ReliableLink(configuration: ReliableConfiguration(window: 8))
        link.dropData = { (10..<20).contains($0) }
        link.dropAcks = { (30..<35).contains($0) }
        link.send(payloads)
        link.run()
        #expect(link.delivered == payloads)
        #expect(link.receiver.statistics.outOfOrder > 0)
    }

    @Test func reorderedSegmentsAreHeldAndDeliveredInOrder() {
        var link = ReliableLink(configuration: ReliableConfiguration(window: 16))
        // Every fourth transmission takes 15 ms longer: later segments overtake it.
        link.extraDelay = { $0 % 4 == 0 ? .milliseconds(15) : .zero }
        link.send(Array(payloads.prefix(40)))
        link.run()
        #expect(link.delivered == Array(payloads.prefix(40)))
        #expect(link.receiver.statistics.outOfOrder > 0)
    }

    @Test func duplicatesAreDeliveredOnce() {
        var link = ReliableLink()
        link.duplicateData = { _ in true }
        link.send(Array(payloads.prefix(20)))
        link.run()
        #expect(link.delivered == Array(payloads.prefix(20)))
        #expect(link.receiver.statistics.duplicates == 20)
    }

    @Test func theWindowLimitsSegmentsInFlight() {
        var sender = ReliableSender(flowID: 1, configuration: ReliableConfiguration(window: 4))
        var transmitted: [UInt32] = []
        for index in 0..<10 {
            for case .transmit(let message) in sender.send(.segment([UInt8(index)]), now: .zero) {
                transmitted.append(message.sequence)
            }
        }
        #expect(transmitted == [0, 1, 2, 3])
        #expect(sender.inFlight == 4 && sender.queued == 6 && sender.availableWindow == 0)
        let ack = AppMessage(flowID: 1, sequence: 2, sentAt: 0, body: .ack)
        let actions = sender.receive(ack, now: Instant(nanoseconds: 1_000_000))
        let released = actions.compactMap { action -> UInt32? in
            if case .transmit(let message) = action { message.sequence } else { nil }
        }
        #expect(released == [4, 5])
        #expect(sender.inFlight == 4 && sender.queued == 4)
    }

    @Test func acksThatCoverNothingNewOrTooMuchAreIgnored() {
        var sender = ReliableSender(flowID: 1)
        _ = sender.send(.segment([1]), now: .zero)
        #expect(sender.receive(AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: .ack), now: .zero).isEmpty)
        #expect(sender.receive(AppMessage(flowID: 1, sequence: 2, sentAt: 0, body: .ack), now: .zero).isEmpty)
        #expect(sender.receive(AppMessage(flowID: 2, sequence: 1, sentAt: 0, body: .ack), now: .zero).isEmpty)
        #expect(sender.inFlight == 1)
        #expect(
            sender.receive(AppMessage(flowID: 1, sequence: 1, sentAt: 0, body: .ack), now: .zero) == [
                .cancel(.retransmission)
            ]
        )
        #expect(sender.isIdle)
    }

    /// RFC 6298 2.2-2.3 by hand: R = 100 ms gives SRTT 100, RTTVAR 50, RTO 100 + 4 x 50 = 300 ms;
    /// then R' = 200 ms gives RTTVAR 3/4 x 50 + 1/4 x 100 = 62.5, SRTT 7/8 x 100 + 1/8 x 200 =
    /// 112.5, RTO 112.5 + 250 = 362.5 ms; a timeout doubles it (5.5) to 725 ms.
    @Test func timeoutFollowsRFC6298() {
        var rto = RetransmissionTimeout(configuration: ReliableConfiguration())
        #expect(rto.timeout == .seconds(1))
        rto.sample(.milliseconds(100))
        #expect(rto.smoothedRTT == .milliseconds(100) && rto.rttVariation == .milliseconds(50))
        #expect(rto.timeout == .milliseconds(300))
        rto.sample(.milliseconds(200))
        #expect(rto.rttVariation == .microseconds(62_500) && rto.smoothedRTT == .microseconds(112_500))
        #expect(rto.timeout == .microseconds(362_500))
        rto.backOff()
        #expect(rto.timeout == .microseconds(725_000))
        for _ in 0..<10 { rto.backOff() }
        #expect(rto.timeout == .seconds(8))
    }

    /// R = 1 ms: SRTT 1 + max(G = 1, 4 x 0.5 = 2) = 3 ms, raised to the 50 ms minimum.
    @Test func timeoutHasAFloor() {
        var rto = RetransmissionTimeout(configuration: ReliableConfiguration())
        rto.sample(.milliseconds(1))
        #expect(rto.timeout == .milliseconds(50))
    }

    @Test func retransmitsTheOldestOnTimeoutWithBackOff() {
        var sender = ReliableSender(flowID: 1)
        let first = sender.send(.segment([7]), now: .zero)
        #expect(
            first == [
                .transmit(AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: .segment([7]))),
                .arm(.retransmission, at: Instant.zero + .seconds(1)),
            ]
        )
        #expect(sender.timerFired(now: Instant.zero + .milliseconds(500)).isEmpty)
        let retry = sender.timerFired(now: Instant.zero + .seconds(1))
        #expect(
            retry == [
                .transmit(AppMessage(flowID: 1, sequence: 0, sentAt: 1_000_000_000, body: .segment([7]))),
                .arm(.retransmission, at: Instant.zero + .seconds(3)),
            ]
        )
        // Karn: the ack of a retransmitted segment gives no round-trip sample.
        _ = sender.receive(AppMessage(flowID: 1, sequence: 1, sentAt: 0, body: .ack), now: Instant.zero + .seconds(2))
        #expect(sender.timeout.smoothedRTT == nil)
    }

    /// Timeouts at 1, 3, 7 and 15 s each retransmit and double the RTO (2, 4, 8, then 16 capped
    /// at 8 s); the fifth timeout, at 15 + 8 = 23 s, is one more than the 4 allowed: give up.
    @Test func givesUpAfterTheLastRetransmission() {
        var link = ReliableLink(configuration: ReliableConfiguration(maximumRetransmissions: 4))
        link.dropData = { _ in true }
        link.send([[1]])
        link.run()
        #expect(link.failures == [.linkLost(sequence: 0, transmissions: 5)])
        #expect(link.now == Instant.zero + .seconds(23))
        #expect(link.dataTransmissions == 5)
        #expect(link.sender.failure != nil && link.sender.availableWindow == 0)
        #expect(link.sender.send(.segment([2]), now: link.now).isEmpty)
    }

    @Test func theReceiveBufferIsBounded() {
        var receiver = ReliableReceiver(flowID: 1, receiveBuffer: 2)
        func segment(_ sequence: UInt32) -> AppMessage {
            AppMessage(flowID: 1, sequence: sequence, sentAt: 0, body: .segment([UInt8(sequence)]))
        }
        let ackZero = ReliableAction.transmit(AppMessage(flowID: 1, sequence: 0, sentAt: 0, body: .ack))
        #expect(receiver.receive(segment(1), now: .zero) == [ackZero])
        #expect(receiver.receive(segment(2), now: .zero) == [ackZero])
        #expect(receiver.receive(segment(3), now: .zero) == [ackZero])
        #expect(receiver.statistics.outOfOrder == 2 && receiver.statistics.dropped == 1)
        #expect(
            receiver.receive(segment(0), now: .zero) == [
                .notify(.deliver(.segment([0]))), .notify(.deliver(.segment([1]))), .notify(.deliver(.segment([2]))),
                .transmit(AppMessage(flowID: 1, sequence: 3, sentAt: 0, body: .ack)),
            ]
        )
        _ = receiver.receive(segment(1), now: .zero)
        #expect(receiver.statistics.duplicates == 1)
    }
}
