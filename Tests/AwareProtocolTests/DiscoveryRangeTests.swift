import AwareWire
import Testing

@testable import AwareProtocol

/// Discovery Range Limited (SDA Service Control bit 5): in USD a peer is in range at or above
/// -70 dBm (hostap `NAN_DE_RSSI_CLOSE_PROXIMITY`, nan-wire-reference.md 1.5); synchronized
/// discovery uses RSSI_close, -60 dBm (1.4).
@Suite struct DiscoveryRangeTests {
    typealias Support = DiscoveryTestSupport

    private func discovered(
        rssi: Int,
        publisherLimited: Bool = false,
        subscriberLimited: Bool = false,
        solicitation: PublishSolicitation = .unsolicited,
        mode: SubscribeMode = .passive
    ) -> Int {
        var wire = Support.pair()
        wire.rssi[[0, 1]] = rssi
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: solicitation,
                    discoveryRangeLimited: publisherLimited
                )
            )
        )
        wire.command(
            1,
            .subscribe(
                SubscribeConfiguration(
                    serviceName: Support.service,
                    mode: mode,
                    discoveryRangeLimited: subscriberLimited
                )
            )
        )
        wire.run(for: .milliseconds(300))
        return wire.results(1).count
    }

    @Test func thresholdsFollowTheMode() {
        #expect(DiscoveryConfiguration(address: Support.publisher).rangeThresholdDBm == -70)
        #expect(DiscoveryConfiguration(address: Support.publisher, mode: .synchronized).rangeThresholdDBm == -60)
    }

    @Test func withoutALimitFarPublishersAreFound() {
        #expect(discovered(rssi: -90) == 1)
    }

    @Test func aRangeLimitedSubscriberIgnoresFarPublishers() {
        #expect(discovered(rssi: -71, subscriberLimited: true) == 0)
        #expect(discovered(rssi: -70, subscriberLimited: true) == 1)
    }

    @Test func aRangeLimitedPublishIsIgnoredByFarSubscribers() {
        #expect(discovered(rssi: -75, publisherLimited: true) == 0)
        #expect(discovered(rssi: -65, publisherLimited: true) == 1)
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    discoveryRangeLimited: true
                )
            )
        )
        wire.run(for: .milliseconds(100))
        #expect(wire.frames(from: 0).first.flatMap { Support.descriptor(of: $0.frame) }?.discoveryRangeLimited == true)
    }

    @Test func aRangeLimitedSolicitedPublisherDoesNotAnswerFarSubscribers() {
        #expect(discovered(rssi: -80, publisherLimited: true, solicitation: .solicited, mode: .active) == 0)
        #expect(discovered(rssi: -80, subscriberLimited: true, solicitation: .solicited, mode: .active) == 0)
        #expect(discovered(rssi: -60, publisherLimited: true, solicitation: .solicited, mode: .active) == 1)
    }
}
