import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// What the accessory puts on the air: the Publish SDF the phone reads (apple-peer-model.md,
/// nan-wire-reference.md 1.3, 2.4, 2.5, 2.16, 2.18).
@Suite struct DiscoveryPublishFrameTests {
    typealias Support = DiscoveryTestSupport

    static let publish = PublishConfiguration(
        serviceName: "_matter._tcp",
        solicitation: .unsolicited,
        serviceInfo: ServiceSpecificInfo(bonjour: DNSSDTXTRecord([(key: "a", value: "b")])),
        pairing: PairingAdvertisement(),
        additionalAttributes: [.unknown(id: .countryCode, body: [0x55, 0x53])]
    )

    @Test func unsolicitedPublishIsByteExact() throws {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let started = engine.handle(.command(.publish(Self.publish)), now: .zero, rng: &rng)
        let first = try #require(Self.announceInstant(started))
        let actions = engine.handle(.timerFired(.announce(instanceID: 1)), now: first, rng: &rng)
        let transmitted = actions.compactMap { action -> TxRequest? in
            if case .transmit(let request) = action { request } else { nil }
        }
        #expect(transmitted.count == 1)
        // Written by hand from the reference: header (1.3: A1 = A3 = NAN Network ID), SDF
        // header (1.1), SDA with the Service ID of "_matter._tcp" (8.6), SDEA with SUI 0 and a
        // Bonjour TXT "a=b" (2.5), DCEA pairing setup + caching (2.16), NPBA Advertise PIN
        // display (2.18), then the caller's extra attribute.
        let expected = Support.hex(
            """
            d000 0000 516f9a010000 02a000000001 516f9a010000 0000
            0409506f9a13
            030900 aba9cf8e4d3a 01 00 00
            0e0e00 01 0002 00 0800 506f9a01 03613d62
            2a0200 0003
            2c0500 00 00 00 0200
            0b0200 5553
            """
        )
        #expect(transmitted.first?.frame == expected)
        #expect(transmitted.first?.channel == .channel6)
    }

    /// When the first announcement of instance 1 is armed for, in `actions`.
    static func announceInstant(_ actions: [DiscoveryAction]) -> Instant? {
        for case .arm(.announce(instanceID: 1), let instant) in actions { return instant }
        return nil
    }

    static func firstAnnouncement(seed: UInt64, start: Instant = .zero) -> Instant? {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: seed)
        return announceInstant(engine.handle(.command(.publish(Self.publish)), now: start, rng: &rng))
    }

    /// The first Publish waits a random phase in [0, announcement period), so that publishers
    /// started together do not announce in step; nothing goes out at once.
    @Test func startingAPublishListensNotifiesAndArmsTheFirstAnnouncementAtARandomPhase() throws {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let start = Instant.zero + .seconds(5)
        let actions = engine.handle(.command(.publish(Self.publish)), now: start, rng: &rng)
        #expect(actions.first == .notify(.listen([.channel6])))
        #expect(actions.contains(.notify(.publishStarted(instanceID: 1, serviceName: "_matter._tcp"))))
        #expect(!actions.contains { if case .transmit = $0 { true } else { false } })
        let first = try #require(Self.announceInstant(actions))
        #expect(actions.last == .arm(.announce(instanceID: 1), at: first))
        #expect(first >= start && first < start + .milliseconds(100))
        #expect(Self.firstAnnouncement(seed: 1, start: start) == first)
    }

    @Test func publishersWithDifferentSeedsStartAtDifferentPhases() throws {
        let phases = try (1...8).map { seed in
            try #require(Self.firstAnnouncement(seed: UInt64(seed))).nanoseconds
        }
        #expect(phases.allSatisfy { $0 < 100_000_000 })
        #expect(Set(phases).count == phases.count)
        // Spread over the period, not bunched at one end.
        #expect(phases.min()! < 50_000_000 && phases.max()! >= 50_000_000)
    }

    /// After the random phase, announcements repeat every 100 ms ± 10 % (the jitter keeps
    /// publishers that started in step from staying in step).
    @Test func announcementsRepeatEveryHundredMillisecondsWithJitter() {
        var wire = TestWire()
        wire.addStation(Support.publisher)
        wire.command(0, .publish(Self.publish))
        wire.run(until: Instant.zero + .milliseconds(2_000))
        let times = wire.frames(from: 0).map(\.time.nanoseconds)
        #expect(times.first.map { $0 < 100_000_000 } == true)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.count >= 18)
        #expect(gaps.allSatisfy { (90_000_000...110_000_000).contains($0) })
        #expect(Set(gaps).count > 1)
    }

    @Test func twoPublishersStartedTogetherDoNotAnnounceInStep() {
        var wire = TestWire(seed: 9)
        wire.addStation(Support.publisher)
        wire.addStation(Support.stranger)
        wire.command(0, .publish(Self.publish))
        wire.command(1, .publish(Self.publish))
        wire.run(until: Instant.zero + .milliseconds(3_000))
        let first = Set(wire.frames(from: 0).map(\.time))
        let second = wire.frames(from: 1).map(\.time)
        #expect(second.count > 20)
        #expect(second.allSatisfy { !first.contains($0) })
    }

    @Test func solicitedOnlyPublishIsSilentUntilAsked() {
        var wire = TestWire()
        wire.addStation(Support.publisher)
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .solicited)))
        wire.run(for: .milliseconds(1_000))
        #expect(wire.frames(from: 0).isEmpty)
    }

    @Test func theSubscriberReadsTXTAndPairingAttributesFromThePublish() throws {
        var wire = Support.pair()
        var publish = Self.publish
        publish.serviceInfo = ServiceSpecificInfo(
            bonjour: DNSSDTXTRecord([
                (key: "vendorName", value: "Example Inc"), (key: "modelName", value: "Drone X"),
                (key: "pairingName", value: "My Drone"),
            ])
        )
        wire.command(0, .publish(publish))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_matter._tcp")))
        wire.run(for: .milliseconds(150))
        let result = try #require(wire.results(1).first)
        #expect(wire.results(1).count == 1)
        #expect(result.publisherAddress == Support.publisher)
        #expect(result.publishInstanceID == 1)
        #expect(result.serviceID == ServiceID(hex: "aba9cf8e4d3a"))
        #expect(result.rssiDBm == -50)
        #expect(result.txtRecord?["vendorName"] == "Example Inc")
        #expect(result.txtRecord?["modelName"] == "Drone X")
        #expect(result.txtRecord?["pairingName"] == "My Drone")
        #expect(result.deviceCapabilityExtension?.pairingSetupEnabled == true)
        #expect(result.deviceCapabilityExtension?.npkNIKCachingEnabled == true)
        #expect(result.bootstrappingMethods == .pinCodeDisplay)
        #expect(result.serviceUpdateIndicator == 0)
        #expect(result.addressThree == .nanNetworkID)
        #expect(result.attributes.contains(.unknown(id: .countryCode, body: [0x55, 0x53])))
        #expect(result.matched && !result.solicited)
    }
}
