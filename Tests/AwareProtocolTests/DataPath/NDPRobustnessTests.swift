import AwareCore
import AwareFuzzing
import AwareTestSupport
import AwareWire
import Testing

@testable import AwareProtocol

/// 500 mutated frames that still parse as a NAF, per machine and step: no trap, and never an
/// established link.
@Suite struct NDPRobustnessTests {
    static let rounds = 500

    /// The frames of one good secure exchange and the machines just before each step.
    private struct Steps {
        var request: [UInt8]
        var response: [UInt8]
        var confirm: [UInt8]
        var keyInstall: [UInt8]
        var initiatorAwaitingResponse: NDPInitiator
        var initiatorAwaitingKeyInstall: NDPInitiator
        var responderAwaitingConfirm: NDPResponder
    }

    private func steps() throws -> Steps {
        var initiator = NDPInitiator(configuration: NDPTest.initiator(), nonce: NDPTest.iNonce)
        let request = try #require(NDPTest.transmitted(initiator.start(now: .zero)).first)
        let awaitingResponse = initiator
        let m1 = try #require(NDPTest.naf(request))
        var responder = try #require(
            NDPResponder(
                configuration: NDPTest.responder(),
                request: m1.frame,
                transmitter: m1.transmitter,
                nonce: NDPTest.rNonce,
                now: .zero
            )
        )
        let awaitingConfirm = responder
        let response = try #require(NDPTest.transmitted(responder.initialActions).first)
        let m2 = try #require(NDPTest.naf(response))
        let confirm = try #require(
            NDPTest.transmitted(initiator.handle(.received(m2.frame, transmitter: m2.transmitter), now: .zero)).first
        )
        let awaitingKeyInstall = initiator
        let m3 = try #require(NDPTest.naf(confirm))
        let keyInstall = try #require(
            NDPTest.transmitted(responder.handle(.received(m3.frame, transmitter: m3.transmitter), now: .zero)).first
        )
        return Steps(
            request: request,
            response: response,
            confirm: confirm,
            keyInstall: keyInstall,
            initiatorAwaitingResponse: awaitingResponse,
            initiatorAwaitingKeyInstall: awaitingKeyInstall,
            responderAwaitingConfirm: awaitingConfirm
        )
    }

    /// Mutations that leave the NAF as it was (a changed header field only) are not fed: the
    /// machine is right to accept those. Mutations that no longer parse never reach a machine.
    private func mutations(of original: [UInt8], seed: UInt64) -> [(NANActionFrame, MACAddress)] {
        let unchanged = NDPTest.naf(original)?.frame
        var mutator = FrameMutator(corpus: [original], seed: seed)
        var frames: [(NANActionFrame, MACAddress)] = []
        for _ in 0..<(Self.rounds * 40) where frames.count < Self.rounds {
            guard let (frame, transmitter) = NDPTest.naf(mutator.next()), frame != unchanged else { continue }
            frames.append((frame, transmitter))
        }
        return frames
    }

    @Test func initiatorNeverEstablishesOnAMutatedResponseOrKeyInstall() throws {
        let steps = try steps()
        var micRefusals = 0
        for step in [
            (steps.response, steps.initiatorAwaitingResponse), (steps.keyInstall, steps.initiatorAwaitingKeyInstall),
        ] {
            let frames = mutations(of: step.0, seed: UInt64(step.0.count))
            #expect(frames.count == Self.rounds)
            for (frame, transmitter) in frames {
                var initiator = step.1
                let actions = initiator.handle(.received(frame, transmitter: transmitter), now: .zero)
                #expect(NDPTest.established(actions) == nil)
                if case .micMismatch? = NDPTest.failure(actions)?.kind { micRefusals += 1 }
            }
        }
        #expect(micRefusals > 0, "some mutations reach the MIC check and fail there")
    }

    @Test func responderNeverEstablishesOnAMutatedRequestOrConfirm() throws {
        let steps = try steps()
        var answered = 0
        let requests = mutations(of: steps.request, seed: 61)
        #expect(requests.count == Self.rounds)
        for (frame, transmitter) in requests {
            guard
                let responder = NDPResponder(
                    configuration: NDPTest.responder(),
                    request: frame,
                    transmitter: transmitter,
                    nonce: NDPTest.rNonce,
                    now: .zero
                )
            else { continue }
            answered += 1
            #expect(NDPTest.established(responder.initialActions) == nil)
        }
        #expect(answered > 0)
        let confirms = mutations(of: steps.confirm, seed: 62)
        #expect(confirms.count == Self.rounds)
        for (frame, transmitter) in confirms {
            var responder = steps.responderAwaitingConfirm
            #expect(
                NDPTest.established(responder.handle(.received(frame, transmitter: transmitter), now: .zero)) == nil
            )
        }
    }
}
