import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// Termination, re-establishment and retransmission (nan-wire-reference.md 4.1).
@Suite struct NDPLifecycleTests {
    private func terminated(_ actions: [NDPAction]) -> (NDPLink.ID, NANReasonCode, Bool)? {
        actions.lazy.compactMap { action -> (NDPLink.ID, NANReasonCode, Bool)? in
            if case .notify(.terminated(let id, let reason, let byPeer)) = action { (id, reason, byPeer) } else { nil }
        }.first
    }

    /// One side terminates (type 4 in subtype 9), both report it, and a new data path (new NDP
    /// ID and dialog token) with the same peer is set up afterwards.
    @Test(arguments: [true, false])
    func terminationThenReestablishment(initiatorEnds: Bool) throws {
        var exchange = NDPTest.exchange(NDPTest.initiator(), NDPTest.responder())
        var responder = try #require(exchange.responder)
        #expect(exchange.initiatorLink != nil && responder.link != nil)

        let ending =
            initiatorEnds
            ? exchange.initiator.handle(.terminate(reason: .unspecifiedReason), now: .zero)
            : responder.handle(.terminate(reason: .unspecifiedReason), now: .zero)
        let local = try #require(terminated(ending))
        #expect(local.2 == false && local.1 == .unspecifiedReason)
        let frame = try #require(NDPTest.transmitted(ending).first.flatMap(NDPTest.naf))
        #expect(frame.frame.subtype == .dataPathTermination)
        let message = try #require(NDPMessage(frame.frame))
        #expect(message.common.type == .terminate && message.common.ndpID == 1)

        let heard =
            initiatorEnds
            ? responder.handle(.received(frame.frame, transmitter: frame.transmitter), now: .zero)
            : exchange.initiator.handle(.received(frame.frame, transmitter: frame.transmitter), now: .zero)
        let remote = try #require(terminated(heard))
        #expect(remote.0 == local.0 || remote.0.ndpID == local.0.ndpID)
        #expect(remote.1 == .unspecifiedReason && remote.2 == true)
        #expect(exchange.initiator.link == nil && responder.link == nil)
        // A second termination changes nothing.
        #expect(exchange.initiator.handle(.terminate(reason: .unspecifiedReason), now: .zero).isEmpty)

        exchange = NDPTest.exchange(NDPTest.initiator(dialogToken: 2, ndpID: 2), NDPTest.responder())
        #expect(exchange.initiatorLink?.id == NDPLink.ID(peerNMI: NDPTest.accessoryNMI, ndpID: 2))
        #expect(exchange.responderLink?.id == NDPLink.ID(peerNMI: NDPTest.phoneNMI, ndpID: 2))
        #expect(exchange.initiatorLink?.tk == exchange.responderLink?.tk)
    }

    /// No Response: the Request goes out three times a second apart, then a timeout.
    @Test func requestRetransmissionAndTimeout() {
        var initiator = NDPInitiator(configuration: NDPTest.initiator(), nonce: NDPTest.iNonce)
        let start = initiator.start(now: .zero)
        let request = NDPTest.transmitted(start)
        #expect(start.last == .arm(.awaitingResponse, at: .zero + .seconds(1)))
        let second = initiator.handle(.timerFired(.awaitingResponse), now: .zero + .seconds(1))
        #expect(second == [.transmit(request[0]), .arm(.awaitingResponse, at: .zero + .seconds(2))])
        let third = initiator.handle(.timerFired(.awaitingResponse), now: .zero + .seconds(2))
        #expect(NDPTest.transmitted(third) == request)
        let last = initiator.handle(.timerFired(.awaitingResponse), now: .zero + .seconds(3))
        #expect(last == [.notify(.failed(NDPFailure(.timeout(.awaitingResponse))))])
        #expect(initiator.handle(.timerFired(.awaitingResponse), now: .zero + .seconds(4)).isEmpty)
    }

    /// The responder repeats its Response on its timer and when the same Request comes again,
    /// then the late Confirm still completes; without any Confirm it times out.
    @Test func responseRetransmission() throws {
        var initiator = NDPInitiator(configuration: NDPTest.initiator(), nonce: NDPTest.iNonce)
        let request = try #require(NDPTest.transmitted(initiator.start(now: .zero)).first.flatMap(NDPTest.naf))
        var responder = try #require(
            NDPResponder(
                configuration: NDPTest.responder(),
                request: request.frame,
                transmitter: request.transmitter,
                nonce: NDPTest.rNonce,
                now: .zero
            )
        )
        let response = NDPTest.transmitted(responder.initialActions)
        let untouched = responder
        #expect(
            responder.handle(.received(request.frame, transmitter: request.transmitter), now: .zero) == [
                .transmit(response[0])
            ]
        )
        let repeated = responder.handle(.timerFired(.awaitingConfirm), now: .zero + .seconds(1))
        #expect(NDPTest.transmitted(repeated) == response)

        let reply = try #require(NDPTest.naf(response[0]))
        let confirm = try #require(
            NDPTest.transmitted(initiator.handle(.received(reply.frame, transmitter: reply.transmitter), now: .zero))
                .first.flatMap(NDPTest.naf)
        )
        let done = responder.handle(.received(confirm.frame, transmitter: confirm.transmitter), now: .zero)
        #expect(NDPTest.established(done) != nil)

        var silent = untouched
        _ = silent.handle(.timerFired(.awaitingConfirm), now: .zero)
        _ = silent.handle(.timerFired(.awaitingConfirm), now: .zero)
        #expect(
            silent.handle(.timerFired(.awaitingConfirm), now: .zero) == [
                .notify(.failed(NDPFailure(.timeout(.awaitingConfirm))))
            ]
        )
    }

    /// The Key Installment is lost: the initiator sends its Confirm again on its timer and the
    /// responder, already established, answers with the same Key Installment.
    @Test func confirmRetransmissionGetsTheSameKeyInstallment() throws {
        var initiator = NDPInitiator(configuration: NDPTest.initiator(), nonce: NDPTest.iNonce)
        let request = try #require(NDPTest.transmitted(initiator.start(now: .zero)).first.flatMap(NDPTest.naf))
        var responder = try #require(
            NDPResponder(
                configuration: NDPTest.responder(),
                request: request.frame,
                transmitter: request.transmitter,
                nonce: NDPTest.rNonce,
                now: .zero
            )
        )
        let reply = try #require(NDPTest.transmitted(responder.initialActions).first.flatMap(NDPTest.naf))
        let confirm = NDPTest.transmitted(
            initiator.handle(.received(reply.frame, transmitter: reply.transmitter), now: .zero)
        )
        let m3 = try #require(confirm.first.flatMap(NDPTest.naf))
        let lost = NDPTest.transmitted(responder.handle(.received(m3.frame, transmitter: m3.transmitter), now: .zero))
        #expect(responder.link != nil)

        let again = initiator.handle(.timerFired(.awaitingKeyInstall), now: .zero + .seconds(1))
        #expect(NDPTest.transmitted(again) == confirm)
        let answer = responder.handle(.received(m3.frame, transmitter: m3.transmitter), now: .zero + .seconds(1))
        #expect(NDPTest.transmitted(answer) == lost && NDPTest.established(answer) == nil)
        let m4 = try #require(lost.first.flatMap(NDPTest.naf))
        let done = initiator.handle(.received(m4.frame, transmitter: m4.transmitter), now: .zero + .seconds(1))
        #expect(NDPTest.established(done)?.tk == responder.link?.tk)
    }

    /// Frames from someone else, or for another NDP, are ignored.
    @Test func strangersAreIgnored() throws {
        var initiator = NDPInitiator(configuration: NDPTest.initiator(), nonce: NDPTest.iNonce)
        let request = try #require(NDPTest.transmitted(initiator.start(now: .zero)).first.flatMap(NDPTest.naf))
        let responder = try #require(
            NDPResponder(
                configuration: NDPTest.responder(),
                request: request.frame,
                transmitter: request.transmitter,
                nonce: NDPTest.rNonce,
                now: .zero
            )
        )
        let reply = try #require(NDPTest.transmitted(responder.initialActions).first.flatMap(NDPTest.naf))
        #expect(initiator.handle(.received(reply.frame, transmitter: NDPTest.strangerNMI), now: .zero).isEmpty)
        var otherNDP = reply.frame
        otherNDP.attributes = otherNDP.attributes.map { attribute in
            guard case .ndpExtension(var ndpe) = attribute else { return attribute }
            ndpe.ndpID = 9
            return .ndpExtension(ndpe)
        }
        #expect(initiator.handle(.received(otherNDP, transmitter: reply.transmitter), now: .zero).isEmpty)
        #expect(
            NDPTest.established(initiator.handle(.received(reply.frame, transmitter: reply.transmitter), now: .zero))
                == nil
        )
    }
}
