import AwareCore
import AwareCrypto
import AwareFuzzing
import AwareProtocol
import AwareTestSupport
import AwareWire
import Testing

/// Mutated PASN frames against both machines: never a trap, and never a completed exchange
/// from a frame that is not the real one.
@Suite struct PASNRobustnessTests {
    typealias Fixture = PASNSessionFixture
    static let rounds = 1_500

    @Test func theResponderRefusesMutationsOfFrame1() throws {
        let configuration = try Fixture.configuration(phoneSide: false, attributesFrom: 15)
        var mutator = FrameMutator(corpus: [try SessionFixture.frame(14), try SessionFixture.frame(35)], seed: 21)
        var rng = SeededGenerator(seed: 22)
        var answered = 0
        for _ in 0..<Self.rounds {
            guard
                let frame = ReceivedFrame(
                    bytes: mutator.next(),
                    info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero)
                )
            else { continue }
            var responder = PASNResponder(configuration: configuration, credential: .password(Fixture.pin))
            let actions = responder.handle(.frame1(frame, nil), now: .zero, rng: &rng)
            #expect(Fixture.result(actions) == nil)
            if Fixture.transmitted(actions).isEmpty == false { answered += 1 }
        }
        #expect(answered > 0, "some mutations stay well-formed enough to answer (or refuse)")
    }

    @Test func theInitiatorNeverCompletesOnAMutatedFrame2() throws {
        let original = try SessionFixture.frame(15)
        var mutator = FrameMutator(corpus: [original], seed: 31)
        var rng = SeededGenerator(seed: 32)
        var base = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 14),
            credential: .password(Fixture.pin)
        )
        _ = base.handle(.start(try Fixture.pairingRandomness(phoneSide: true)), now: .zero, rng: &rng)
        for _ in 0..<Self.rounds {
            let bytes = mutator.next()
            guard
                let frame = ReceivedFrame(
                    bytes: bytes,
                    info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero)
                )
            else { continue }
            var initiator = base
            let actions = initiator.handle(.received(frame), now: .zero, rng: &rng)
            if Fixture.result(actions) != nil {
                // Only octets outside the MIC's reach (the 802.11 header's duration and sequence
                // number) may change without failing the exchange.
                #expect(Array(bytes[24...]) == Array(original[24...]), "a mutated frame 2 completed the pairing")
            }
        }
    }
}
