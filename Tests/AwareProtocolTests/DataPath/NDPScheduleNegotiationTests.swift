import AwareWire
import Testing

@testable import AwareProtocol

/// NDL negotiation in the Request / Response / Confirm (nan-wire-reference.md 2.7, 2.9, 4.1).
@Suite struct NDPScheduleNegotiationTests {
    private func ndl(_ frame: NANActionFrame) -> NDLAttribute? {
        frame.attributes.lazy.compactMap { if case .ndl(let value) = $0 { value } else { nil } }.first
    }

    /// The intersection is large enough: NDL Response Accepted, committed = intersection.
    @Test func intersectionAccepted() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(mode: .realtime)),
            NDPTest.responder(availability: NDPSchedule(mode: .bulk), minimumSlots: 4)
        )
        let link = try #require(exchange.responderLink)
        #expect(link.schedule.slots == PerformanceMode.bulk.availableSlots)
        #expect(exchange.initiatorLink?.schedule.slots == PerformanceMode.bulk.availableSlots)
        let response = try #require(ndl(exchange.frames[1].frame))
        #expect(response.type == .response && response.status == .accepted)
        let request = try #require(ndl(exchange.frames[0].frame))
        #expect(request.type == .request && request.status == .continued)
    }

    /// Intersection too small: the responder counter-proposes its own schedule (NDL Continued);
    /// it fits the initiator's potential, so the Confirm carries NDL Confirm Accepted.
    @Test func counterProposalAccepted() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3, 4])),
            NDPTest.responder(
                availability: NDPSchedule(channel: .channel149, slots: [20, 21, 22, 23, 24]),
                minimumSlots: 3
            )
        )
        let response = try #require(ndl(exchange.frames[1].frame))
        #expect(response.status == .continued)
        let confirm = try #require(ndl(exchange.frames[2].frame))
        #expect(confirm.type == .confirm && confirm.status == .accepted)
        #expect(exchange.initiatorLink?.schedule.slots == [20, 21, 22, 23, 24])
        #expect(exchange.responderLink?.schedule.slots == [20, 21, 22, 23, 24])
    }

    /// The counter-proposal is outside what the initiator can do: Confirm Rejected with
    /// NDL_UNACCEPTABLE (11); both sides fail on the schedule.
    @Test func counterProposalRefused() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(
                proposal: NDPSchedule(channel: .channel149, slots: [1, 2, 3, 4]),
                potential: NDPSchedule(channel: .channel149, slots: Array(0..<16))
            ),
            NDPTest.responder(
                availability: NDPSchedule(channel: .channel149, slots: [20, 21, 22, 23, 24]),
                minimumSlots: 3
            )
        )
        #expect(exchange.frames.map(\.frame.subtype) == [.dataPathRequest, .dataPathResponse, .dataPathConfirm])
        let confirm = try #require(NDPMessage(exchange.frames[2].frame))
        #expect(confirm.common.status == .rejected && confirm.common.reasonCode == .ndlUnacceptable)
        #expect(ndl(exchange.frames[2].frame)?.status == .rejected)
        #expect(exchange.initiatorFailure == NDPFailure(.scheduleUnacceptable, reason: .ndlUnacceptable))
        #expect(exchange.responderFailure == NDPFailure(.scheduleUnacceptable, reason: .ndlUnacceptable))
        #expect(exchange.initiatorLink == nil && exchange.responderLink == nil)
    }

    /// A data channel the initiator cannot use is refused the same way.
    @Test func counterProposalOnAnotherChannel() {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(channel: .channel149, slots: Array(0..<32))),
            NDPTest.responder(availability: NDPSchedule(channel: .channel44, slots: Array(0..<32)))
        )
        #expect(exchange.initiatorFailure?.reason == .ndlUnacceptable)
        #expect(exchange.responderLink == nil)
    }

    /// The responder cannot offer the minimum at all: Response Rejected, INVALID_AVAILABILITY (6).
    @Test func noScheduleAtAll() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(channel: .channel149, slots: [1, 2])),
            NDPTest.responder(availability: NDPSchedule(channel: .channel149, slots: [9, 10]), minimumSlots: 4)
        )
        let response = try #require(NDPMessage(exchange.frames[1].frame))
        #expect(response.common.status == .rejected && response.common.reasonCode.rawValue == 6)
        #expect(ndl(exchange.frames[1].frame)?.status == .rejected)
        #expect(exchange.responderFailure == NDPFailure(.scheduleUnacceptable, reason: .invalidAvailability))
        #expect(exchange.initiatorFailure?.kind == .rejectedByPeer(.invalidAvailability))
    }

    /// The NDL QoS minimum raises the bar: 8 common slots are not enough for realtime's 31.
    @Test func qosMinimumCounts() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(proposal: NDPSchedule(mode: .bulk), qos: PerformanceMode.realtime.ndlQoS),
            NDPTest.responder(availability: NDPSchedule(mode: .bulk))
        )
        let response = try #require(NDPMessage(exchange.frames[1].frame))
        #expect(response.common.reasonCode == .invalidAvailability)
    }
}
