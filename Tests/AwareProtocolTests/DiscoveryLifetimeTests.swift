import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// TTL and termination reasons with nl80211's values: 0 user request, 1 TTL expired, 2 error
/// (nan-wire-reference.md 6).
@Suite struct DiscoveryLifetimeTests {
    typealias Support = DiscoveryTestSupport

    @Test func reasonsCarryNL80211Values() {
        #expect(TerminationReason.userRequested.rawValue == 0)
        #expect(TerminationReason.timeToLiveExpired.rawValue == 1)
        #expect(TerminationReason.failure.rawValue == 2)
    }

    @Test func aPublishEndsWhenItsTTLExpiresAndSendsNothingAfter() {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    timeToLive: .milliseconds(1_000)
                )
            )
        )
        wire.run(for: .milliseconds(5_000))
        let ended = wire.terminations(0)
        #expect(ended.count == 1)
        #expect(
            ended.first?.instanceID == 1 && ended.first?.role == .publish && ended.first?.reason == .timeToLiveExpired
        )
        let expiry = wire.notifications.first { if case .terminated = $0.notification { true } else { false } }?.time
        #expect(expiry == Instant.zero + .milliseconds(1_000))
        #expect(wire.frames(from: 0).allSatisfy { $0.time < Instant.zero + .milliseconds(1_000) })
        #expect(wire.stations[0].discovery.publishInstanceIDs.isEmpty)
        #expect(!wire.timers.keys.contains { if case .discovery(0, _) = $0 { true } else { false } })
    }

    @Test func aSubscribeThatExpiredReportsNoLaterPublisher() {
        var wire = Support.pair()
        wire.command(
            1,
            .subscribe(SubscribeConfiguration(serviceName: Support.service, timeToLive: .milliseconds(500)))
        )
        wire.run(for: .milliseconds(1_000))
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .unsolicited)))
        wire.run(for: .milliseconds(1_000))
        #expect(wire.results(1).isEmpty)
        #expect(wire.terminations(1).map(\.reason) == [.timeToLiveExpired])
        #expect(wire.terminations(1).map(\.role) == [.subscribe])
    }

    @Test func cancellingIsAUserRequestAndDisarmsTimers() {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    timeToLive: .milliseconds(10_000)
                )
            )
        )
        wire.run(for: .milliseconds(250))
        wire.command(0, .cancelPublish(instanceID: 1))
        let sent = wire.frames(from: 0).count
        wire.run(for: .milliseconds(20_000))
        #expect(wire.terminations(0).map(\.reason) == [.userRequested])
        #expect(wire.frames(from: 0).count == sent)
        #expect(!wire.timers.keys.contains { if case .discovery(0, _) = $0 { true } else { false } })
    }

    @Test func aRadioFailureEndsEveryInstanceWithError() {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service)))
        wire.command(0, .subscribe(SubscribeConfiguration(serviceName: "_other._tcp", mode: .active)))
        wire.handleDiscovery(0, .radioFailed)
        #expect(wire.terminations(0).map(\.instanceID) == [1, 2])
        #expect(wire.terminations(0).map(\.reason) == [.failure, .failure])
    }
}
