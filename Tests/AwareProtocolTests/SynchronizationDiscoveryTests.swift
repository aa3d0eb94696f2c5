import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// Synchronized discovery: SDFs only inside discovery windows, with A3 = Cluster ID
/// (nan-wire-reference.md 1.3, 1.4).
@Suite struct SynchronizationDiscoveryTests {
    typealias Support = DiscoveryTestSupport

    private func wire(publish: PublishSolicitation, subscribe: SubscribeMode) -> TestWire {
        var wire = TestWire(seed: 21)
        let a = SynchronizationTests.station(&wire, Support.publisher, preference: 2)
        let b = SynchronizationTests.station(&wire, Support.subscriber, preference: 1)
        wire.startSynchronization(a)
        wire.run(for: .milliseconds(500))
        wire.startSynchronization(b)
        wire.command(a, .publish(PublishConfiguration(serviceName: Support.service, solicitation: publish)))
        wire.command(b, .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: subscribe)))
        wire.run(for: .milliseconds(6_000))
        return wire
    }

    private func checkSDFsAreInsideWindows(_ wire: TestWire) {
        for station in wire.stations.indices {
            guard let sync = wire.stations[station].synchronization, let cluster = sync.cluster else {
                Issue.record("station \(station) is in no cluster")
                continue
            }
            let sdfs = wire.frames(from: station).filter {
                if case .serviceDiscovery = $0.frame.body { true } else { false }
            }
            for sdf in sdfs {
                #expect(sdf.frame.header.address3 == cluster.clusterID)
                let tsf = sync.tsf(at: sdf.time) ?? 0
                #expect(DiscoveryWindowTiming.isInWindow(tsf, on: sdf.channel), "SDF at TSF \(tsf) on \(sdf.channel)")
            }
        }
    }

    /// Each SDF goes out at its own random instant in the first 16 - 4 TU of its window, drawn
    /// from the seed: the same seed gives the same instants, another seed others.
    @Test func sdfsAreSpreadOverTheWindowDeterministically() {
        func offsets(seed: UInt64) -> [UInt64] {
            var wire = TestWire(seed: seed)
            let a = SynchronizationTests.station(&wire, Support.publisher, preference: 2)
            wire.startSynchronization(a)
            wire.run(for: .milliseconds(500))
            wire.command(a, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .unsolicited)))
            wire.run(for: .milliseconds(6_000))
            guard let sync = wire.stations[a].synchronization else { return [] }
            return wire.frames(from: a).compactMap { entry in
                guard case .serviceDiscovery = entry.frame.body, let tsf = sync.tsf(at: entry.time) else { return nil }
                let offset: UInt64 = entry.channel == .channel149 ? 131_072 : 0
                return (tsf - offset) % 524_288
            }
        }
        let first = offsets(seed: 5)
        #expect(first.count >= 15)
        #expect(first.allSatisfy { $0 < 12 * 1_024 })
        #expect(Set(first).count > first.count / 2)
        #expect(offsets(seed: 5) == first)
        #expect(offsets(seed: 6) != first)
    }

    /// A reply queued while no window was open is spread over the next window like the rest.
    @Test func aQueuedReplyGoesOutAtARandomInstantOfTheNextWindow() throws {
        var engine = DiscoveryEngine(
            configuration: DiscoveryConfiguration(address: Support.publisher, mode: .synchronized)
        )
        var rng = SeededGenerator(seed: 3)
        _ = engine.handle(
            .command(.publish(PublishConfiguration(serviceName: Support.service, solicitation: .solicited))),
            now: .zero,
            rng: &rng
        )
        let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
        let subscribe = ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: .nanNetworkID,
                address2: Support.subscriber,
                address3: cluster
            ),
            body: .serviceDiscovery(
                ServiceDiscoveryFrame(
                    category: .publicAction,
                    attributes: [
                        .serviceDescriptor(
                            ServiceDescriptorAttribute(
                                serviceID: ServiceID(serviceName: Support.service),
                                instanceID: 7,
                                type: .subscribe
                            )
                        )
                    ]
                )
            )
        )
        let heard = try #require(
            ReceivedFrame(
                bytes: subscribe.wireBytes,
                info: RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero + .milliseconds(100))
            )
        )
        var actions = engine.handle(.received(heard), now: .zero + .milliseconds(100), rng: &rng)
        #expect(!actions.contains { if case .transmit = $0 { true } else { false } })
        let window = DiscoveryWindow(
            channel: .channel6,
            clusterID: cluster,
            start: .zero + .milliseconds(500),
            end: .zero + .milliseconds(500) + DiscoveryWindowTiming.length
        )
        actions = engine.handle(.discoveryWindowStarted(window), now: window.start, rng: &rng)
        #expect(!actions.contains { if case .transmit = $0 { true } else { false } })
        var due: Instant?
        for case .arm(.windowTransmit(.channel6), let instant) in actions { due = instant }
        let at = try #require(due)
        #expect(at >= window.start && at < window.start + .timeUnits(12))
        actions = engine.handle(.timerFired(.windowTransmit(.channel6)), now: at, rng: &rng)
        let sent = actions.compactMap { action -> TxRequest? in
            if case .transmit(let request) = action { request } else { nil }
        }
        #expect(sent.map(\.channel) == [.channel6])
        let reply = sent.first.flatMap { try? IEEE80211Frame(bytes: $0.frame).managementFrame }
        #expect(reply?.header.address1 == Support.subscriber)
        #expect(reply.flatMap(Support.descriptor)?.requestorInstanceID == 7)
    }

    @Test func anUnsolicitedPublishIsFoundInsideWindows() throws {
        let wire = wire(publish: .unsolicited, subscribe: .passive)
        let result = try #require(wire.results(1).first)
        #expect(wire.results(1).count == 1)
        #expect(result.addressThree == wire.stations[0].synchronization?.cluster?.clusterID)
        checkSDFsAreInsideWindows(wire)
        let channels = Set(
            wire.frames(from: 0).filter { if case .serviceDiscovery = $0.frame.body { true } else { false } }.map(
                \.channel
            )
        )
        #expect(channels == [.channel6, .channel149])
    }

    @Test func aSolicitedPublisherAnswersAnActiveSubscribeInsideAWindow() throws {
        let wire = wire(publish: .solicited, subscribe: .active)
        let result = try #require(wire.results(1).first)
        #expect(result.solicited)
        #expect(wire.replies(0).count == 1)
        checkSDFsAreInsideWindows(wire)
    }

    @Test func solicitedAgainstPassiveNeverDiscoversHereEither() {
        let wire = wire(publish: .solicited, subscribe: .passive)
        #expect(wire.results(1).isEmpty)
        #expect(wire.frames(from: 0).allSatisfy { if case .nanBeacon = $0.frame.body { true } else { false } })
    }

    @Test func aSynchronizedEngineWaitsForAWindowBeforeSending() throws {
        var engine = DiscoveryEngine(
            configuration: DiscoveryConfiguration(address: Support.publisher, mode: .synchronized)
        )
        var rng = SeededGenerator(seed: 1)
        var actions = engine.handle(
            .command(.publish(PublishConfiguration(serviceName: Support.service))),
            now: .zero,
            rng: &rng
        )
        #expect(!actions.contains { if case .transmit = $0 { true } else { false } })
        #expect(!actions.contains { if case .notify(.listen) = $0 { true } else { false } })
        let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
        let window = DiscoveryWindow(
            channel: .channel149,
            clusterID: cluster,
            start: Instant.zero + .milliseconds(10),
            end: Instant.zero + .milliseconds(10) + DiscoveryWindowTiming.length
        )
        actions = engine.handle(.discoveryWindowStarted(window), now: window.start, rng: &rng)
        // Not at the window start: at a random instant in its first 16 - 4 TU.
        #expect(!actions.contains { if case .transmit = $0 { true } else { false } })
        var due: Instant?
        for case .arm(.windowTransmit(.channel149), let instant) in actions { due = instant }
        let at = try #require(due)
        #expect(at >= window.start && at < window.start + .timeUnits(12))
        actions = engine.handle(.timerFired(.windowTransmit(.channel149)), now: at, rng: &rng)
        let sent = actions.compactMap { action -> TxRequest? in
            if case .transmit(let request) = action { request } else { nil }
        }
        #expect(sent.count == 1)
        #expect(sent.first?.channel == .channel149)
        let frame = sent.first.flatMap { try? IEEE80211Frame(bytes: $0.frame).managementFrame }
        #expect(frame?.header.address1 == .nanNetworkID)
        #expect(frame?.header.address3 == cluster)
    }

    /// A publisher with an announcement period of 3 sends its unsolicited publish in every third
    /// window only (windows 512 TU apart, nan-wire-reference.md 1.4): in windows 0 to 8, in the
    /// windows numbered 0, 3 and 6.
    @Test func aPowerSavingPublisherAnnouncesInEveryNthWindowOnly() throws {
        var engine = DiscoveryEngine(
            configuration: DiscoveryConfiguration(address: Support.publisher, mode: .synchronized)
        )
        var rng = SeededGenerator(seed: 1)
        _ = engine.handle(
            .command(.publish(PublishConfiguration(serviceName: Support.service, announcementPeriod: 3))),
            now: .zero,
            rng: &rng
        )
        let cluster = MACAddress(0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34)
        var announced: [Int] = []
        for number in 0..<9 {
            let start = Instant.zero + Interval(nanoseconds: DiscoveryWindowTiming.period.nanoseconds * Int64(number))
            let window = DiscoveryWindow(
                channel: .channel6,
                clusterID: cluster,
                start: start,
                end: start + DiscoveryWindowTiming.length
            )
            let opened = engine.handle(.discoveryWindowStarted(window), now: start, rng: &rng)
            var due: Instant?
            for case .arm(.windowTransmit(.channel6), let instant) in opened { due = instant }
            guard let due else { continue }
            let fired = engine.handle(.timerFired(.windowTransmit(.channel6)), now: due, rng: &rng)
            if fired.contains(where: { if case .transmit = $0 { true } else { false } }) { announced.append(number) }
        }
        #expect(announced == [0, 3, 6])
    }
}
