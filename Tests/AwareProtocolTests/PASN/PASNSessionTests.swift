import AwareCore
import AwareCrypto
import AwareProtocol
import AwareTestSupport
import AwareWire
import Testing

/// The PASN machines against hostap session A: from the recorded random values each side
/// builds the recorded frames byte for byte, accepts the other side's recorded frames, and
/// ends with the transcript's keys.
@Suite struct PASNSessionTests {
    typealias Fixture = PASNSessionFixture

    @Test func initiatorBuildsFrame14ByteForByte() throws {
        var initiator = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 14),
            credential: .password(Fixture.pin)
        )
        var rng = SeededGenerator(seed: 1)
        let actions = initiator.handle(.start(try Fixture.pairingRandomness(phoneSide: true)), now: .zero, rng: &rng)
        #expect(Fixture.transmitted(actions) == [try SessionFixture.frame(14)])
    }

    @Test func responderAnswersFrame14WithFrame15ByteForByte() throws {
        var responder = PASNResponder(
            configuration: try Fixture.configuration(phoneSide: false, attributesFrom: 15),
            credential: .password(Fixture.pin)
        )
        var rng = SeededGenerator(seed: 1)
        let actions = responder.handle(
            .frame1(try Fixture.received(14), try Fixture.pairingRandomness(phoneSide: false)),
            now: .zero,
            rng: &rng
        )
        #expect(Fixture.transmitted(actions) == [try SessionFixture.frame(15)])
        #expect(responder.confirmSent)
    }

    @Test func initiatorAcceptsFrame15AndSendsFrame16WithTheTranscriptKeys() throws {
        var initiator = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 14),
            credential: .password(Fixture.pin)
        )
        var rng = SeededGenerator(seed: 1)
        _ = initiator.handle(.start(try Fixture.pairingRandomness(phoneSide: true)), now: .zero, rng: &rng)
        let actions = initiator.handle(.received(try Fixture.received(15)), now: .zero, rng: &rng)
        #expect(Fixture.transmitted(actions) == [try SessionFixture.frame(16)])
        let result = try #require(Fixture.result(actions))
        #expect(result.npk == (try Fixture.transcriptBytes("pairing.nan_keys.npk")))
        #expect(result.tk == (try Fixture.transcriptBytes("pairing.nan_keys.nm_tk")))
        #expect(result.nmKEK == (try Fixture.transcriptBytes("pairing.nan_keys.nm_kek")))
        #expect(result.ndPMK == (try Fixture.transcriptBytes("pairing.nan_keys.nd_pmk")))
        #expect(result.peerCachesKeys)
        #expect(!result.isVerification)
        #expect(initiator.isFinished)
    }

    @Test func responderAcceptsFrame16WithTheTranscriptKeys() throws {
        var responder = PASNResponder(
            configuration: try Fixture.configuration(phoneSide: false, attributesFrom: 15),
            credential: .password(Fixture.pin)
        )
        var rng = SeededGenerator(seed: 1)
        _ = responder.handle(
            .frame1(try Fixture.received(14), try Fixture.pairingRandomness(phoneSide: false)),
            now: .zero,
            rng: &rng
        )
        let actions = responder.handle(.received(try Fixture.received(16)), now: .zero, rng: &rng)
        let result = try #require(Fixture.result(actions))
        #expect(result.tk == (try Fixture.transcriptBytes("pairing.nan_keys.nm_tk")))
        #expect(result.nmKEK == (try Fixture.transcriptBytes("pairing.nan_keys.nm_kek")))
        #expect(result.ndPMK == (try Fixture.transcriptBytes("pairing.nan_keys.nd_pmk")))
        #expect(result.initiator == Fixture.phone && result.responder == Fixture.accessory)
    }

    @Test func verificationFrames35To37ByteForByteOnBothSides() throws {
        var initiator = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 35),
            credential: .cachedKey(try Fixture.cachedKey(phoneSide: true, knowsPeerNIK: true))
        )
        var responder = PASNResponder(
            configuration: try Fixture.configuration(phoneSide: false, attributesFrom: 36),
            credential: .cachedKey(try Fixture.cachedKey(phoneSide: false, knowsPeerNIK: false))
        )
        var rng = SeededGenerator(seed: 1)
        let frame1 = initiator.handle(
            .start(try Fixture.verificationRandomness(phoneSide: true)),
            now: .zero,
            rng: &rng
        )
        #expect(Fixture.transmitted(frame1) == [try SessionFixture.frame(35)])
        let frame2 = responder.handle(
            .frame1(try Fixture.received(35), try Fixture.verificationRandomness(phoneSide: false)),
            now: .zero,
            rng: &rng
        )
        #expect(Fixture.transmitted(frame2) == [try SessionFixture.frame(36)])
        #expect(!responder.confirmSent)
        let frame3 = initiator.handle(.received(try Fixture.received(36)), now: .zero, rng: &rng)
        #expect(Fixture.transmitted(frame3) == [try SessionFixture.frame(37)])
        let done = responder.handle(.received(try Fixture.received(37)), now: .zero, rng: &rng)
        let phoneResult = try #require(Fixture.result(frame3))
        let accessoryResult = try #require(Fixture.result(done))
        #expect(phoneResult.isVerification && accessoryResult.isVerification)
        #expect(phoneResult.tk == (try Fixture.transcriptBytes("verification.tk")))
        #expect(accessoryResult.tk == phoneResult.tk)
        #expect(accessoryResult.ndPMK == (try Fixture.transcriptBytes("verification.nd_pmk")))
        #expect(accessoryResult.nmKEK == (try Fixture.transcriptBytes("verification.responder_only_nm_kek")))
    }
}
