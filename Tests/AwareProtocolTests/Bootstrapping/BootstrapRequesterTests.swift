import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// The requester alone, fed hand-built Responses (nan-wire-reference.md 2.18, 3.2).
@Suite struct BootstrapRequesterTests {
    static let accessory = BootstrapLink.accessory
    static let retransmit = BootstrapTimer.retransmit(peer: accessory)
    static let comebackTimer = BootstrapTimer.comeback(peer: accessory)

    static func response(
        token: UInt8 = 5,
        status: PairingBootstrappingStatus,
        reasonCode: UInt8 = 0,
        after: UInt16? = nil,
        cookie: [UInt8]? = nil,
        methods: BootstrappingMethods = []
    ) -> FollowUpMessage {
        let npba = PairingBootstrappingAttribute(
            dialogToken: token,
            type: .response,
            status: status,
            reasonCode: reasonCode,
            comebackAfter: after,
            cookie: cookie,
            methods: methods
        )
        return BootstrapTestSupport.message(npba, from: accessory)
    }

    static func started(
        _ requester: inout BootstrapRequester,
        _ rng: inout SeededGenerator,
        token: UInt8 = 5
    ) -> [BootstrapRequesterAction] {
        requester.handle(.start(BootstrapLink.target(.pinCodeKeypad, token: token)), now: .zero, rng: &rng)
    }

    @Test func theFirstRequestGoesToThePeerInstance() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        let actions = Self.started(&requester, &rng)
        let request = PairingBootstrappingAttribute(
            dialogToken: 5,
            type: .request,
            status: .accepted,
            methods: .pinCodeKeypad
        )
        #expect(
            actions == [
                .transmit(
                    FollowUpRequest(
                        localInstanceID: 1,
                        peerAddress: Self.accessory,
                        peerInstanceID: 1,
                        attributes: [.pairingBootstrapping(request)]
                    )
                ),
                .notify(.requestSent(token: 5, attempt: 1)),
                .arm(Self.retransmit, at: Instant.zero + .seconds(1)),
            ]
        )
    }

    @Test func aDrawnDialogTokenIsNeverZero() {
        for seed in 0..<500 as Range<UInt64> {
            var generator = SeededGenerator(seed: seed)
            var fresh = BootstrapRequester()
            let actions = fresh.handle(.start(BootstrapLink.target(.pinCodeKeypad)), now: .zero, rng: &generator)
            guard case .transmit(let followUp) = actions.first, let npba = followUp.npba else {
                Issue.record("no request for seed \(seed)")
                return
            }
            #expect(npba.dialogToken != 0)
        }
    }

    @Test(arguments: [0x0000, 0x0022, 0x0060] as [UInt16])
    func aTargetMustNameExactlyOneMethod(mask: UInt16) {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        let target = BootstrapLink.target(BootstrappingMethods(rawValue: mask))
        let actions = requester.handle(.start(target), now: .zero, rng: &rng)
        #expect(actions == [.notify(.failed(.invalidMethod))])
        #expect(requester.state == .failed(.invalidMethod))
    }

    @Test func anAcceptedMethodThatIsNotTheComplementFails() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        let actions = requester.handle(
            .received(Self.response(status: .accepted, methods: .passphraseDisplay)),
            now: .zero,
            rng: &rng
        )
        #expect(actions == [.cancel(Self.retransmit), .notify(.failed(.methodMismatch(.passphraseDisplay)))])
        #expect(requester.agreement == nil)
    }

    @Test func nineComebacksAreOneTooMany() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        let comeback = Self.response(status: .comeback, after: 10, cookie: [1, 2, 3, 4])
        var now = Instant.zero
        for round in 1...8 {
            let actions = requester.handle(.received(comeback), now: now, rng: &rng)
            #expect(actions.last == .arm(Self.comebackTimer, at: now + .timeUnits(10)), "round \(round)")
            now = now + .timeUnits(10)
            _ = requester.handle(.timerFired(Self.comebackTimer), now: now, rng: &rng)
        }
        let actions = requester.handle(.received(comeback), now: now, rng: &rng)
        #expect(actions == [.cancel(Self.retransmit), .notify(.failed(.tooManyComebacks))])
    }

    @Test func aComebackRequestCarriesTheCookieButNoComebackAfter() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        _ = requester.handle(
            .received(Self.response(status: .comeback, after: 0x0102, cookie: [0xAA, 0xBB])),
            now: .zero,
            rng: &rng
        )
        let actions = requester.handle(.timerFired(Self.comebackTimer), now: .zero + .timeUnits(0x0102), rng: &rng)
        guard case .transmit(let followUp) = actions.first else {
            Issue.record("no comeback request: \(actions)")
            return
        }
        // 2.18: token | 0x21 | 00 | cookie length | cookie | PIN keypad.
        #expect(BootstrapTestSupport.wire(followUp.npba) == BootstrapTestSupport.hex("2c 0800 05 21 00 02 aabb 2000"))
    }

    @Test func otherPeersTokensAndTypesAreIgnored() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        let before = requester.state
        let stranger = BootstrapTestSupport.message(
            PairingBootstrappingAttribute(dialogToken: 5, type: .response, status: .accepted, methods: .pinCodeDisplay),
            from: BootstrapLink.stranger
        )
        let request = BootstrapTestSupport.message(
            PairingBootstrappingAttribute(dialogToken: 5, type: .request, status: .accepted, methods: .pinCodeDisplay),
            from: Self.accessory
        )
        let ignored = [
            stranger,
            Self.response(token: 6, status: .accepted, methods: .pinCodeDisplay),
            request,
            Self.response(status: .reserved(7), methods: .pinCodeDisplay),
        ]
        for message in ignored {
            #expect(requester.handle(.received(message), now: .zero, rng: &rng) == [])
        }
        #expect(requester.state == before)
    }

    @Test func staleTimersAreIgnored() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        #expect(requester.handle(.timerFired(Self.retransmit), now: .zero, rng: &rng) == [])
        _ = Self.started(&requester, &rng)
        #expect(requester.handle(.timerFired(Self.comebackTimer), now: .zero, rng: &rng) == [])
        #expect(
            requester.handle(.timerFired(.retransmit(peer: BootstrapLink.stranger)), now: .zero, rng: &rng) == []
        )
    }

    @Test func abortCancelsTheRetransmission() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        #expect(
            requester.handle(.abort, now: .zero, rng: &rng) == [.cancel(Self.retransmit), .notify(.failed(.aborted))]
        )
        #expect(requester.handle(.abort, now: .zero, rng: &rng) == [])
    }

    @Test func aNewStartAbandonsAComebackWait() {
        var requester = BootstrapRequester()
        var rng = SeededGenerator(seed: 3)
        _ = Self.started(&requester, &rng)
        _ = requester.handle(.received(Self.response(status: .comeback, after: 10, cookie: [1])), now: .zero, rng: &rng)
        let actions = Self.started(&requester, &rng, token: 8)
        #expect(actions.first == .cancel(Self.comebackTimer))
        #expect(actions.contains(.notify(.requestSent(token: 8, attempt: 1))))
    }
}
