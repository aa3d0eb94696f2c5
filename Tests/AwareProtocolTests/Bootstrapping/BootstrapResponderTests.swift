import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// The responder alone, fed hand-built Requests (nan-wire-reference.md 2.18, 3.2).
@Suite struct BootstrapResponderTests {
    static let phone = BootstrapLink.phone
    static let expiry = BootstrapTimer.sessionExpiry(peer: phone)
    /// One draw whose four low-order octets, least significant first, are 01 02 03 04.
    static let cookieDraw: UInt64 = 0xFFFF_FFFF_0403_0201
    static let cookie: [UInt8] = [0x01, 0x02, 0x03, 0x04]

    static func responder(offered: BootstrappingMethods = .pinCodeDisplay) -> BootstrapResponder {
        BootstrapResponder(configuration: BootstrapResponderConfiguration(offered: offered, comebackAfterTU: 200))
    }

    static func request(
        token: UInt8 = 7,
        status: PairingBootstrappingStatus = .accepted,
        cookie: [UInt8]? = nil,
        methods: BootstrappingMethods = .pinCodeKeypad,
        localInstanceID: UInt8 = 1,
        peerInstanceID: UInt8 = 1
    ) -> FollowUpMessage {
        BootstrapTestSupport.message(
            PairingBootstrappingAttribute(
                dialogToken: token,
                type: .request,
                status: status,
                cookie: cookie,
                methods: methods
            ),
            from: phone,
            localInstanceID: localInstanceID,
            peerInstanceID: peerInstanceID
        )
    }

    static func answer(
        _ npbaHex: String,
        localInstanceID: UInt8 = 1,
        peerInstanceID: UInt8 = 1
    ) -> BootstrapResponderAction {
        var reader = WireReader(BootstrapTestSupport.hex(npbaHex), structure: "expected NPBA")
        guard let attribute = try? NANAttribute(from: &reader) else { fatalError("bad expected NPBA: \(npbaHex)") }
        return .transmit(
            FollowUpRequest(
                localInstanceID: localInstanceID,
                peerAddress: phone,
                peerInstanceID: peerInstanceID,
                attributes: [attribute]
            )
        )
    }

    /// Request, then the owner's authorization with cookie 01020304.
    static func authorized(_ responder: inout BootstrapResponder) -> [BootstrapResponderAction] {
        var rng = ScriptedGenerator(values: [cookieDraw])
        _ = responder.handle(.received(request()), now: .zero, rng: &rng)
        return responder.handle(.decide(peer: phone, .authorize), now: .zero, rng: &rng)
    }

    @Test func aPinRequestWaitsForTheOwner() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let actions = responder.handle(
            .received(Self.request(localInstanceID: 4, peerInstanceID: 9)),
            now: .zero,
            rng: &rng
        )
        #expect(
            actions == [
                .notify(.authorizationRequested(peer: Self.phone, peerInstanceID: 9, method: .pinCodeDisplay)),
                .arm(Self.expiry, at: Instant.zero + .seconds(125)),
            ]
        )
        #expect(responder.sessions[Self.phone]?.phase == .awaitingDecision)
    }

    @Test func authorizationAnswersComebackWithAFreshCookie() {
        var responder = Self.responder()
        // 2.18: token 07 | 0x22 | 00 | C8 00 (200 TU) | 04 | cookie | 00 00.
        #expect(Self.authorized(&responder) == [Self.answer("2c 0c00 07 22 00 c800 04 01020304 0000")])
        #expect(responder.sessions[Self.phone]?.phase == .authorized(cookie: Self.cookie))
    }

    @Test func theRightCookieIsAccepted() throws {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = Self.authorized(&responder)
        let comeback = Self.request(status: .comeback, cookie: Self.cookie)
        let actions = responder.handle(.received(comeback), now: .zero, rng: &rng)
        #expect(
            actions == [
                Self.answer("2c 0500 07 02 00 0200"),
                .notify(.accepted(peer: Self.phone, method: .pinCodeDisplay)),
            ]
        )
        let agreement = try #require(responder.agreement(with: Self.phone))
        #expect(agreement.request.cookie == Self.cookie)
    }

    @Test(arguments: [
        (UInt8(7), [UInt8](repeating: 0, count: 4), BootstrappingMethods.pinCodeKeypad),  // wrong cookie
        (UInt8(8), [0x01, 0x02, 0x03, 0x04], BootstrappingMethods.pinCodeKeypad),  // wrong token
        (UInt8(7), [0x01, 0x02, 0x03, 0x04], BootstrappingMethods.passphraseKeypad),  // wrong method
    ])
    func aWrongComebackIsRejectedAndEndsTheSession(token: UInt8, cookie: [UInt8], methods: BootstrappingMethods) {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = Self.authorized(&responder)
        let comeback = Self.request(token: token, status: .comeback, cookie: cookie, methods: methods)
        let actions = responder.handle(.received(comeback), now: .zero, rng: &rng)
        let reject = token == 7 ? "2c 0500 07 12 0d 0000" : "2c 0500 08 12 0d 0000"
        #expect(
            actions == [.cancel(Self.expiry), Self.answer(reject), .notify(.invalidComeback(peer: Self.phone))]
        )
        #expect(responder.sessions.isEmpty)
    }

    @Test func aComebackWithoutASessionIsRejected() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let actions = responder.handle(
            .received(Self.request(status: .comeback, cookie: Self.cookie)),
            now: .zero,
            rng: &rng
        )
        #expect(actions == [Self.answer("2c 0500 07 12 0d 0000"), .notify(.invalidComeback(peer: Self.phone))])
    }

    @Test func aRetransmittedRequestGetsTheSameAnswerAndNoNotification() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let comeback = Self.authorized(&responder)
        #expect(responder.handle(.received(Self.request()), now: .zero, rng: &rng) == comeback)

        _ = responder.handle(.received(Self.request(status: .comeback, cookie: Self.cookie)), now: .zero, rng: &rng)
        let again = responder.handle(
            .received(Self.request(status: .comeback, cookie: Self.cookie)),
            now: .zero,
            rng: &rng
        )
        #expect(again == [Self.answer("2c 0500 07 02 00 0200")])
        // A late copy of the opening Request does not reopen an accepted session.
        #expect(responder.handle(.received(Self.request()), now: .zero, rng: &rng) == [])
        #expect(responder.sessions[Self.phone]?.phase == .accepted)
    }

    @Test func aRetransmissionBeforeTheDecisionIsAnsweredByNothing() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = responder.handle(.received(Self.request()), now: .zero, rng: &rng)
        #expect(responder.handle(.received(Self.request()), now: .zero, rng: &rng) == [])
    }

    @Test(arguments: [0x0000, 0x0060, 0x0080] as [UInt16])
    func aRequestIsRejectedUnlessItsOneMethodComplementsAnOfferedOne(mask: UInt16) {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let methods = BootstrappingMethods(rawValue: mask)
        let actions = responder.handle(.received(Self.request(methods: methods)), now: .zero, rng: &rng)
        #expect(
            actions == [
                Self.answer("2c 0500 07 12 0d 0000"),
                .notify(.methodNotOffered(peer: Self.phone, requested: methods)),
                .arm(Self.expiry, at: Instant.zero + .seconds(125)),
            ]
        )
    }

    @Test func aRetransmittedRejectedRequestIsRejectedAgainQuietly() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let request = Self.request(methods: .qrCodeScan)
        _ = responder.handle(.received(request), now: .zero, rng: &rng)
        #expect(responder.handle(.received(request), now: .zero, rng: &rng) == [Self.answer("2c 0500 07 12 0d 0000")])
    }

    @Test func theOwnerMayRejectWithItsOwnReason() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = responder.handle(.received(Self.request()), now: .zero, rng: &rng)
        let actions = responder.handle(.decide(peer: Self.phone, .reject(reasonCode: 2)), now: .zero, rng: &rng)
        #expect(actions == [Self.answer("2c 0500 07 12 02 0000")])
        // Decided once: a second decision changes nothing.
        #expect(responder.handle(.decide(peer: Self.phone, .authorize), now: .zero, rng: &rng) == [])
    }

    @Test func responsesGoToTheRequestsInstances() {
        var responder = Self.responder(offered: .opportunistic)
        var rng = SeededGenerator(seed: 1)
        let actions = responder.handle(
            .received(Self.request(methods: .opportunistic, localInstanceID: 3, peerInstanceID: 12)),
            now: .zero,
            rng: &rng
        )
        #expect(actions.first == Self.answer("2c 0500 07 02 00 0100", localInstanceID: 3, peerInstanceID: 12))
    }

    @Test func aSessionExpiresAfterItsLifetime() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = responder.handle(.received(Self.request()), now: .zero, rng: &rng)
        #expect(responder.handle(.timerFired(Self.expiry), now: .zero + .seconds(59), rng: &rng) == [])
        #expect(
            responder.handle(.timerFired(Self.expiry), now: .zero + .seconds(125), rng: &rng)
                == [.notify(.sessionExpired(peer: Self.phone))]
        )
        #expect(responder.sessions.isEmpty)
    }

    @Test func forgettingAPeerDropsItsSession() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        _ = Self.authorized(&responder)
        #expect(responder.handle(.forget(peer: Self.phone), now: .zero, rng: &rng) == [.cancel(Self.expiry)])
        #expect(responder.handle(.forget(peer: Self.phone), now: .zero, rng: &rng) == [])
        let comeback = responder.handle(
            .received(Self.request(status: .comeback, cookie: Self.cookie)),
            now: .zero,
            rng: &rng
        )
        #expect(comeback.last == .notify(.invalidComeback(peer: Self.phone)))
    }

    @Test func followUpsWithoutARequestAreIgnored() {
        var responder = Self.responder()
        var rng = SeededGenerator(seed: 1)
        let advertise = BootstrapTestSupport.message(
            PairingBootstrappingAttribute(dialogToken: 0, type: .advertise, status: .accepted, methods: .pinCodeKeypad),
            from: Self.phone
        )
        let rejectedRequest = Self.request(status: .rejected)
        #expect(responder.handle(.received(advertise), now: .zero, rng: &rng) == [])
        #expect(responder.handle(.received(rejectedRequest), now: .zero, rng: &rng) == [])
        #expect(responder.sessions.isEmpty)
    }
}
