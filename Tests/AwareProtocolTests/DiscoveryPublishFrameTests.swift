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

    @Test func unsolicitedPublishIsByteExact() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let actions = engine.handle(.command(.publish(Self.publish)), now: .zero, rng: &rng)
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

    @Test func startingAPublishListensNotifiesAndArmsTheNextAnnouncement() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let actions = engine.handle(.command(.publish(Self.publish)), now: .zero, rng: &rng)
        #expect(actions.first == .listen([.channel6]))
        #expect(actions.contains(.notify(.publishStarted(instanceID: 1, serviceName: "_matter._tcp"))))
        #expect(actions.last == .arm(.announce(instanceID: 1), at: .zero + .milliseconds(100)))
    }

    @Test func announcementsRepeatEveryHundredMilliseconds() {
        var wire = TestWire()
        wire.addStation(Support.publisher)
        wire.command(0, .publish(Self.publish))
        wire.run(until: Instant.zero + .milliseconds(1_000))
        let times = wire.frames(from: 0).map { $0.time.nanoseconds / 1_000_000 }
        #expect(times == [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000])
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
