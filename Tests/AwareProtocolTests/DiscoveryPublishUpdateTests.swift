import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// A publish update adds one to the SDEA Service Update Indicator and announces at once; a
/// subscriber that already reported the publisher reports it again (nan-wire-reference.md 2.5).
@Suite struct DiscoveryPublishUpdateTests {
    typealias Support = DiscoveryTestSupport

    static func txt(_ name: String) -> ServiceSpecificInfo {
        ServiceSpecificInfo(bonjour: DNSSDTXTRecord([(key: "pairingName", value: name)]))
    }

    @Test func anUpdateIsAnnouncedAndReportedAgain() throws {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(
                PublishConfiguration(
                    serviceName: Support.service,
                    solicitation: .unsolicited,
                    serviceInfo: Self.txt("Old")
                )
            )
        )
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service)))
        wire.run(for: .milliseconds(550))
        #expect(wire.results(1).count == 1)
        let before = wire.frames(from: 0).count
        wire.command(0, .updatePublish(instanceID: 1, PublishUpdate(serviceInfo: Self.txt("New"))))
        // Announced at once, not at the next period.
        #expect(wire.frames(from: 0).count == before + 1)
        #expect(
            wire.notifications.contains { $0.notification == .publishUpdated(instanceID: 1, serviceUpdateIndicator: 1) }
        )
        #expect(wire.stations[0].discovery.serviceUpdateIndicator(ofPublish: 1) == 1)
        wire.run(for: .milliseconds(1_000))
        let results = wire.results(1)
        #expect(results.map(\.serviceUpdateIndicator) == [0, 1])
        #expect(results.map { $0.txtRecord?["pairingName"] } == ["Old", "New"])
        let last = try #require(wire.frames(from: 0).last?.frame)
        var indicator: UInt8?
        for case .serviceDescriptorExtension(let sdea) in Support.attributes(of: last) {
            indicator = sdea.serviceUpdateIndicator
        }
        #expect(indicator == 1)
    }

    @Test func theIndicatorWrapsAfter255() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let publish = PublishConfiguration(
            serviceName: Support.service,
            solicitation: .solicited,
            serviceUpdateIndicator: 254
        )
        _ = engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)
        _ = engine.handle(.command(.updatePublish(instanceID: 1, PublishUpdate())), now: .zero, rng: &rng)
        #expect(engine.serviceUpdateIndicator(ofPublish: 1) == 255)
        _ = engine.handle(.command(.updatePublish(instanceID: 1, PublishUpdate())), now: .zero, rng: &rng)
        #expect(engine.serviceUpdateIndicator(ofPublish: 1) == 0)
    }
}
