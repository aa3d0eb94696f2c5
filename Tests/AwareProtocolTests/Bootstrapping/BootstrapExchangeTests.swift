import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// Requester and responder driven against each other (nan-wire-reference.md 3.1, 3.2).
@Suite struct BootstrapExchangeTests {
    typealias Link = BootstrapLink
    /// 200 TU of 1024 µs.
    static let comebackDelay = Interval(nanoseconds: 204_800_000)

    @Test func pinKeypadIsAcceptedAfterOneComeback() throws {
        var link = Link(comebackAfterTU: 200)
        link.start(Link.target(.pinCodeKeypad, token: 1))
        link.run(for: .seconds(2))

        #expect(
            link.responderNotifications.first
                == .authorizationRequested(peer: Link.phone, peerInstanceID: 1, method: .pinCodeDisplay)
        )
        #expect(link.responderNotifications.last == .accepted(peer: Link.phone, method: .pinCodeDisplay))
        let cookie = try #require(link.responsesSent.first?.cookie)
        #expect(cookie.count == 4)
        #expect(
            link.requesterNotifications == [
                .requestSent(token: 1, attempt: 1),
                .comeback(after: Self.comebackDelay, cookie: cookie),
                .requestSent(token: 1, attempt: 1),
                .accepted(method: .pinCodeKeypad, peerMethod: .pinCodeDisplay),
            ]
        )
        #expect(link.sentByRequester.map(\.time) == [.zero, Instant.zero + Self.comebackDelay])
        #expect(link.requestsSent.map(\.status) == [.accepted, .comeback])
        #expect(link.requestsSent.last?.cookie == cookie)
        #expect(link.responsesSent.map(\.status) == [.comeback, .accepted])
        #expect(link.responsesSent.map(\.methods) == [[], .pinCodeDisplay])
        #expect(link.requesterTimers.isEmpty)

        let phoneSide = try #require(link.requester.agreement)
        #expect(phoneSide.method == .pinCodeKeypad && phoneSide.peerMethod == .pinCodeDisplay)
        #expect(phoneSide.request.status == .accepted)
        let accessorySide = try #require(link.responder.agreement(with: Link.phone))
        #expect(accessorySide.method == .pinCodeDisplay && accessorySide.peerMethod == .pinCodeKeypad)
        #expect(accessorySide.request.status == .comeback)
    }

    @Test func opportunisticIsAcceptedAtOnce() {
        var link = Link(offered: [.opportunistic, .pinCodeDisplay], decision: nil)
        link.start(Link.target(.opportunistic, token: 9))
        #expect(
            link.requesterNotifications == [
                .requestSent(token: 9, attempt: 1),
                .accepted(method: .opportunistic, peerMethod: .opportunistic),
            ]
        )
        #expect(link.responderNotifications == [.accepted(peer: Link.phone, method: .opportunistic)])
        #expect(link.responsesSent.map(\.status) == [.accepted])
        #expect(link.requesterTimers.isEmpty)
    }

    @Test func aMethodNotOfferedIsRejectedWithReason13() {
        var link = Link(offered: .pinCodeDisplay)
        link.start(Link.target(.qrCodeScan, token: 2))
        #expect(link.responderNotifications == [.methodNotOffered(peer: Link.phone, requested: .qrCodeScan)])
        #expect(link.requesterNotifications.last == .failed(.rejected(reasonCode: 13)))
        // 2.18 reject: token | 0x12 | 0x0D | 00 00.
        #expect(
            BootstrapTestSupport.wire(link.responsesSent.first) == BootstrapTestSupport.hex("2c 0500 02 12 0d 0000")
        )
    }

    @Test func theOwnerRejectsWhileLockedOut() {
        var link = Link(decision: .reject(reasonCode: 8))
        link.start(Link.target(.pinCodeKeypad, token: 3))
        #expect(link.requesterNotifications == [.requestSent(token: 3, attempt: 1), .failed(.rejected(reasonCode: 8))])
        #expect(
            BootstrapTestSupport.wire(link.responsesSent.first) == BootstrapTestSupport.hex("2c 0500 03 12 08 0000")
        )
        #expect(link.requesterTimers.isEmpty)
    }

    @Test func anUnansweredRequestIsSentFiveTimesOneSecondApart() {
        var link = Link()
        link.loseFromRequester = .max
        link.start(Link.target(.pinCodeKeypad, token: 4))
        link.run(for: .seconds(10))
        let second = Interval.seconds(1)
        #expect(
            link.requesterLog.map(\.time) == ([0, 1, 2, 3, 4, 5] as [Int64]).map { Instant.zero + second * $0 }
        )
        #expect(
            link.requesterNotifications == (1...5).map { .requestSent(token: 4, attempt: $0) } + [.failed(.timeout)]
        )
        #expect(Set(link.requestsSent).count == 1)
        #expect(link.requesterTimers.isEmpty)
    }

    @Test func aLostResponseIsSentAgainForTheRetransmission() throws {
        var link = Link(comebackAfterTU: 200)
        link.loseFromResponder = 1
        link.start(Link.target(.pinCodeKeypad, token: 5))
        link.run(for: .seconds(3))

        // The Comeback was lost; the Request's retransmission at 1 s gets the same Comeback again.
        #expect(link.sentByResponder.count == 3)
        #expect(link.responsesSent[0] == link.responsesSent[1])
        #expect(link.sentByResponder[1].time == Instant.zero + .seconds(1))
        #expect(
            link.responderNotifications.filter { if case .authorizationRequested = $0 { true } else { false } }.count
                == 1
        )
        #expect(link.requesterNotifications.last == .accepted(method: .pinCodeKeypad, peerMethod: .pinCodeDisplay))
    }
}
