import AwareCore
import AwareCrypto
import AwareProtocol
import AwareTestSupport
import AwareWire
import Testing

/// The two PASN machines against each other with drawn randomness: success on both suites,
/// and every way an exchange must fail.
@Suite struct PASNExchangeTests {
    typealias Fixture = PASNSessionFixture

    static func configurations(suite: NANSecurityCipherSuite = .ncsPKPASN128) -> (PASNConfiguration, PASNConfiguration)
    {
        let csia = NANAttribute.cipherSuiteInfo(
            CipherSuiteInfoAttribute(
                capabilities: CipherSuiteCapabilities(rawValue: 0),
                cipherSuites: [CipherSuite(csid: CipherSuiteID(suite.csid), instanceID: 1)]
            )
        )
        let phone = PASNConfiguration(
            ownAddress: Fixture.phone,
            peerAddress: Fixture.accessory,
            address3: Fixture.clusterID,
            suite: suite,
            nanAttributes: [csia]
        )
        var accessory = phone
        accessory.ownAddress = Fixture.accessory
        accessory.peerAddress = Fixture.phone
        return (phone, accessory)
    }

    /// Runs frame 1 -> 2 -> 3 and returns each side's last actions.
    static func exchange(
        phonePIN: String,
        accessoryPIN: String,
        suite: NANSecurityCipherSuite = .ncsPKPASN128,
        tamper: (Int, inout [UInt8]) -> Void = { _, _ in }
    ) -> (initiator: [PASNAction], responder: [PASNAction], responderMachine: PASNResponder) {
        let (phoneConfiguration, accessoryConfiguration) = configurations(suite: suite)
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array(phonePIN.utf8)))
        var responder = PASNResponder(
            configuration: accessoryConfiguration,
            credential: .password(Array(accessoryPIN.utf8))
        )
        var rng = SeededGenerator(seed: 7)
        var frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        tamper(1, &frame1)
        let responderActions = responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        guard var frame2 = Fixture.transmitted(responderActions).first else {
            return ([], responderActions, responder)
        }
        tamper(2, &frame2)
        let initiatorActions = initiator.handle(.received(Fixture.asReceived(frame2)), now: .zero, rng: &rng)
        guard var frame3 = Fixture.transmitted(initiatorActions).first else {
            return (initiatorActions, responderActions, responder)
        }
        tamper(3, &frame3)
        let last = responder.handle(.received(Fixture.asReceived(frame3)), now: .zero, rng: &rng)
        return (initiatorActions, last, responder)
    }

    @Test(arguments: [NANSecurityCipherSuite.ncsPKPASN128, .ncsPKPASN256])
    func bothSidesAgreeOnEveryKey(suite: NANSecurityCipherSuite) throws {
        let run = Self.exchange(phonePIN: "123456", accessoryPIN: "123456", suite: suite)
        let phone = try #require(Fixture.result(run.initiator))
        let accessory = try #require(Fixture.result(run.responder))
        #expect(phone.tk == accessory.tk && phone.npk == accessory.npk)
        #expect(phone.nmKEK == accessory.nmKEK && phone.ndPMK == accessory.ndPMK)
        #expect(phone.tk.count == (suite == .ncsPKPASN128 ? 16 : 32))
        #expect(phone.nmKEK.count == (suite == .ncsPKPASN128 ? 16 : 32))
    }

    /// ESP-IDF's forms (nan-wire-reference.md 3.9): a 1-octet RSNXE, A3 = the responder's NMI,
    /// no Supported Groups element. We send hostap's and must accept these.
    @Test func anESPIDFStyleInitiatorAndResponderArePairedWith() throws {
        var (phoneConfiguration, accessoryConfiguration) = Self.configurations()
        phoneConfiguration.rsnxeOctets = 1
        phoneConfiguration.address3 = Fixture.accessory
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("000000".utf8)))
        accessoryConfiguration.sendsSupportedGroups = false
        accessoryConfiguration.rsnxeOctets = 1
        var responder = PASNResponder(
            configuration: accessoryConfiguration,
            credential: .password(Array("000000".utf8))
        )
        var rng = SeededGenerator(seed: 41)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        // RSNXE `F4 01 20` right after the Wrapped Data element.
        #expect(frame1.windowsContain([0xF4, 0x01, 0x20]))
        let frame2 = Fixture.transmitted(
            responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        )[0]
        let frame3 = initiator.handle(.received(Fixture.asReceived(frame2)), now: .zero, rng: &rng)
        #expect(Fixture.result(frame3) != nil)
        let done = responder.handle(
            .received(Fixture.asReceived(Fixture.transmitted(frame3)[0])),
            now: .zero,
            rng: &rng
        )
        #expect(Fixture.result(done) != nil)
    }

    @Test func group20FramesCarryP384KeysAndGCMP256() throws {
        let (phoneConfiguration, _) = Self.configurations(suite: .ncsPKPASN256)
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1234".utf8)))
        var rng = SeededGenerator(seed: 3)
        let frame = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        guard case .pasnAuthentication(let pasn) = Fixture.asReceived(frame).frame.body else {
            Issue.record("not PASN")
            return
        }
        #expect(pasn.rsn?.pairwiseCipherSuites == [.gcmp256])
        #expect(pasn.pasnParameters?.ephemeralKey?.group == 20)
        #expect(pasn.pasnParameters?.ephemeralKey?.publicKey.count == 49)
        // SAE commit for group 20: 6 + 2 + 48 + 96 octets (3.4.1).
        #expect(pasn.wrappedData?.data.count == 152)
    }

    @Test func aWrongPINIsAnSAEConfirmMismatchOnBothSides() throws {
        let run = Self.exchange(phonePIN: "123456", accessoryPIN: "654321")
        #expect(Fixture.failure(run.initiator) == .saeConfirmMismatch)
        // The initiator's abort frame reaches the responder, whose confirm was out: a spent guess.
        #expect(Fixture.failure(run.responder) == .peerAborted(status: PASNStatusCode.unspecifiedFailure))
    }

    @Test func aResponderThatNeverHearsFrame3CountsTheGuessAndTimesOut() throws {
        let (phoneConfiguration, accessoryConfiguration) = Self.configurations()
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var responder = PASNResponder(configuration: accessoryConfiguration, credential: .password(Array("2".utf8)))
        var rng = SeededGenerator(seed: 9)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        let answer = responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        #expect(answer.contains(.arm(.awaitingFrame, at: .zero + .seconds(1))))
        #expect(responder.confirmSent)
        let timeout = responder.handle(.timerFired, now: .zero + .seconds(1), rng: &rng)
        #expect(Fixture.failure(timeout) == .timeout(waitingFor: 3))
    }

    @Test func frame1IsSentThreeTimesThenTheInitiatorTimesOut() throws {
        let (phoneConfiguration, _) = Self.configurations()
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var rng = SeededGenerator(seed: 9)
        let first = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))
        let second = initiator.handle(.timerFired, now: .zero + .seconds(1), rng: &rng)
        let third = initiator.handle(.timerFired, now: .zero + .seconds(2), rng: &rng)
        #expect(Fixture.transmitted(second) == first && Fixture.transmitted(third) == first)
        #expect(Fixture.notifications(third).contains(.frameSent(sequence: 1, attempt: 3)))
        let last = initiator.handle(.timerFired, now: .zero + .seconds(3), rng: &rng)
        #expect(Fixture.failure(last) == .timeout(waitingFor: 2))
        #expect(Fixture.transmitted(last).isEmpty)
    }

    @Test func aRetransmittedFrame1GetsTheSameFrame2() throws {
        let (phoneConfiguration, accessoryConfiguration) = Self.configurations()
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var responder = PASNResponder(configuration: accessoryConfiguration, credential: .password(Array("1".utf8)))
        var rng = SeededGenerator(seed: 11)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        let frame2 = Fixture.transmitted(
            responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        )
        let again = responder.handle(.received(Fixture.asReceived(frame1)), now: .zero, rng: &rng)
        #expect(Fixture.transmitted(again) == frame2)
    }

    /// Offsets into our own frames: the MIC is the last element, so the last octet is MIC.
    @Test func aTamperedFrame2MICFailsTheInitiator() throws {
        let run = Self.exchange(phonePIN: "1", accessoryPIN: "1") { number, frame in
            if number == 2 { frame[frame.count - 1] ^= 0x01 }
        }
        #expect(Fixture.failure(run.initiator) == .micMismatch(frame: 2))
    }

    @Test func aTamperedFrame3MICFailsTheResponder() throws {
        let run = Self.exchange(phonePIN: "1", accessoryPIN: "1") { number, frame in
            if number == 3 { frame[frame.count - 1] ^= 0x80 }
        }
        #expect(Fixture.result(run.initiator) != nil)
        #expect(Fixture.failure(run.responder) == .micMismatch(frame: 3))
    }

    @Test func aTamperedNANElementInFrame3FailsTheMIC() throws {
        let run = Self.exchange(phonePIN: "1", accessoryPIN: "1") { number, frame in
            // Frame 3: header 24 + fixed 6 + Wrapped Data (2 + 1 + 6 + 2 + 32) + PASN Parameters
            // (2 + 3) = 78: the NAN element's first attribute ID is at 78 + 6.
            if number == 3 { frame[78 + 6 + 3] ^= 0x01 }
        }
        #expect(Fixture.failure(run.responder) == .micMismatch(frame: 3))
    }

    @Test func theResponderRefusesAnotherSuiteWithStatus137() throws {
        let (phoneConfiguration, _) = Self.configurations(suite: .ncsPKPASN256)
        var (_, accessoryConfiguration) = Self.configurations(suite: .ncsPKPASN128)
        accessoryConfiguration.suite = .ncsPKPASN128
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var responder = PASNResponder(configuration: accessoryConfiguration, credential: .password(Array("1".utf8)))
        var rng = SeededGenerator(seed: 5)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        let refusal = responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        guard case .invalidFrame(frame: 1, _) = Fixture.failure(refusal) else {
            Issue.record("expected an invalid frame 1, got \(String(describing: Fixture.failure(refusal)))")
            return
        }
        let frame2 = Fixture.transmitted(refusal)
        #expect(frame2.count == 1)
        let answer = initiator.handle(.received(Fixture.asReceived(frame2[0])), now: .zero, rng: &rng)
        #expect(Fixture.failure(answer) == .rejected(status: PASNStatusCode.baseAKMPFailed))
    }

    @Test func aRejectionFrameCarriesOnlyTheStatusAndTheNANElement() throws {
        let (_, accessoryConfiguration) = Self.configurations()
        let request = PASNResponder.rejection(
            status: PASNStatusCode.requestDeclined,
            configuration: accessoryConfiguration
        )
        // B0 00 | dur | A1 | A2 | A3 | seq | 07 00 | 02 00 | 25 00 | DD 0A 50 6F 9A 13 | 22 03 00 00 07 01
        let expected = hex(
            "b0000000" + "02b000000002" + "02a000000001" + "506f9a011234" + "0000"
                + "0700" + "0200" + "2500" + "dd0a506f9a13" + "220300" + "000701"
        )
        #expect(request.frame == expected)
    }

    @Test func aReflectedEphemeralKeyIsRefused() throws {
        let (phoneConfiguration, accessoryConfiguration) = Self.configurations()
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var responder = PASNResponder(configuration: accessoryConfiguration, credential: .password(Array("1".utf8)))
        var rng = SeededGenerator(seed: 13)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        // Frame 2 comes back with the initiator's own public key in it: a reflection the
        // initiator must refuse before any key is derived from it.
        let frame2 = responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        var reflected = Fixture.transmitted(frame2)[0]
        let frame1Key = try #require(Self.keyRange(in: frame1))
        let frame2Key = try #require(Self.keyRange(in: reflected))
        reflected.replaceSubrange(frame2Key, with: frame1[frame1Key])
        let answer = initiator.handle(.received(Fixture.asReceived(reflected)), now: .zero, rng: &rng)
        guard case .invalidPeerKey(frame: 2, _) = Fixture.failure(answer) else {
            Issue.record("expected the reflected key to be refused, got \(String(describing: Fixture.failure(answer)))")
            return
        }
    }

    /// Where the 33-octet key of PASN Parameters (`FF 27 64 02 fmt 13 00 21 | key`) sits.
    static func keyRange(in frame: [UInt8]) -> Range<Int>? {
        for index in 24..<(frame.count - 40)
        where frame[index] == 0xFF && frame[index + 1] == 0x27 && frame[index + 2] == 0x64 {
            return (index + 8)..<(index + 8 + 33)
        }
        return nil
    }

    @Test func abortingAfterFrame1TellsTheResponder() throws {
        let (phoneConfiguration, accessoryConfiguration) = Self.configurations()
        var initiator = PASNInitiator(configuration: phoneConfiguration, credential: .password(Array("1".utf8)))
        var responder = PASNResponder(configuration: accessoryConfiguration, credential: .password(Array("1".utf8)))
        var rng = SeededGenerator(seed: 17)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        _ = responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        let abort = initiator.handle(.abort, now: .zero, rng: &rng)
        #expect(Fixture.failure(abort) == .aborted)
        let told = responder.handle(.received(Fixture.asReceived(Fixture.transmitted(abort)[0])), now: .zero, rng: &rng)
        #expect(Fixture.failure(told) == .peerAborted(status: 1))
    }

    @Test func verificationWithAWrongNPKFailsTheMIC() throws {
        var initiator = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 35),
            credential: .cachedKey(try Fixture.cachedKey(phoneSide: true, knowsPeerNIK: true))
        )
        var wrong = try Fixture.cachedKey(phoneSide: false, knowsPeerNIK: false)
        wrong.npk[0] ^= 0xFF
        var responder = PASNResponder(
            configuration: try Fixture.configuration(phoneSide: false, attributesFrom: 36),
            credential: .cachedKey(wrong)
        )
        var rng = SeededGenerator(seed: 1)
        let frame1 = Fixture.transmitted(initiator.handle(.start(nil), now: .zero, rng: &rng))[0]
        let frame2 = Fixture.transmitted(
            responder.handle(.frame1(Fixture.asReceived(frame1), nil), now: .zero, rng: &rng)
        )[0]
        let answer = initiator.handle(.received(Fixture.asReceived(frame2)), now: .zero, rng: &rng)
        #expect(Fixture.failure(answer) == .micMismatch(frame: 2))
    }

    @Test func verificationWithAnNPKIDFromAnotherNIKIsUnknown() throws {
        var phoneKey = try Fixture.cachedKey(phoneSide: true, knowsPeerNIK: true)
        phoneKey.peerNIK?[0] ^= 0x01
        var initiator = PASNInitiator(
            configuration: try Fixture.configuration(phoneSide: true, attributesFrom: 35),
            credential: .cachedKey(phoneKey)
        )
        var rng = SeededGenerator(seed: 1)
        _ = initiator.handle(.start(try Fixture.verificationRandomness(phoneSide: true)), now: .zero, rng: &rng)
        let answer = initiator.handle(.received(try Fixture.received(36)), now: .zero, rng: &rng)
        #expect(Fixture.failure(answer) == .unknownNPKID)
    }

    @Test func failureReasonsAreTheRunnersWords() {
        #expect(PASNFailure.saeConfirmMismatch.reason == "sae-confirm-mismatch")
        #expect(PASNFailure.rejected(status: 37).reason == "declined")
        #expect(PASNFailure.rejected(status: 53).reason == "no-cached-keys")
        #expect(PASNFailure.timeout(waitingFor: 2).reason == "timeout")
        #expect(PASNFailure.replay(frame: 1).reason == "replay")
    }
}

extension Array where Element == UInt8 {
    func windowsContain(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}
