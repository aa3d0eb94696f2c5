import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// A publisher answers an active subscribe only if the Subscribe's SRF admits its NMI
/// (nan-wire-reference.md 2.4): listed and Include, or not listed and Exclude — for MAC lists and
/// Bloom filters alike (the cases of hostap test_nan.py `nan_sync_srf_mac_addr_*`).
@Suite struct DiscoveryServiceResponseFilterTests {
    typealias Support = DiscoveryTestSupport

    private func replies(with srf: ServiceResponseFilter) -> Int {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .solicited)))
        wire.command(
            1,
            .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: .active, serviceResponseFilter: srf))
        )
        wire.run(for: .milliseconds(300))
        #expect(wire.results(1).count == wire.replies(0).count)
        return wire.replies(0).count
    }

    @Test func macListIncludeAdmitsOnlyListedPublishers() {
        #expect(replies(with: ServiceResponseFilter(include: true, addressSet: .addressList([Support.publisher]))) == 1)
        #expect(
            replies(
                with: ServiceResponseFilter(
                    include: true,
                    addressSet: .addressList([Support.stranger, Support.publisher, Support.subscriber])
                )
            ) == 1
        )
        #expect(replies(with: ServiceResponseFilter(include: true, addressSet: .addressList([Support.stranger]))) == 0)
    }

    @Test func macListExcludeSilencesListedPublishers() {
        #expect(
            replies(with: ServiceResponseFilter(include: false, addressSet: .addressList([Support.publisher]))) == 0
        )
        #expect(replies(with: ServiceResponseFilter(include: false, addressSet: .addressList([Support.stranger]))) == 1)
    }

    @Test(arguments: [UInt8(0), 1, 2, 3]) func bloomFilterIncludeAndExclude(_ index: UInt8) {
        for length in [1, 2, 5] {
            let addresses = [Support.stranger, Support.publisher]
            #expect(replies(with: .bloom(addresses: addresses, index: index, length: length, include: true)) == 1)
            #expect(replies(with: .bloom(addresses: addresses, index: index, length: length, include: false)) == 0)
        }
        // A large filter holding only another address leaves the publisher out.
        #expect(replies(with: .bloom(addresses: [Support.stranger], index: index, length: 64, include: true)) == 0)
        #expect(replies(with: .bloom(addresses: [Support.stranger], index: index, length: 64, include: false)) == 1)
    }

    @Test func anUnsolicitedPublishWithAnSRFThatExcludesTheSubscriberIsNotReported() throws {
        var engine = DiscoveryEngine(
            configuration: DiscoveryConfiguration(address: Support.subscriber, reportsRejectedPublishes: true)
        )
        var rng = SeededGenerator(seed: 1)
        _ = engine.handle(.command(.subscribe(.init(serviceName: Support.service))), now: .zero, rng: &rng)
        let sda = ServiceDescriptorAttribute(
            serviceID: ServiceID(serviceName: Support.service),
            instanceID: 5,
            type: .publish,
            serviceResponseFilter: ServiceResponseFilter(include: false, addressSet: .addressList([Support.subscriber]))
        )
        let frame = ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: .nanNetworkID,
                address2: Support.publisher,
                address3: .nanNetworkID
            ),
            body: .serviceDiscovery(ServiceDiscoveryFrame(attributes: [.serviceDescriptor(sda)]))
        )
        let info = RxInfo(channel: .channel6, rssiDBm: -40, timestamp: .zero)
        let actions = engine.handle(.received(ReceivedFrame(frame: frame, info: info)), now: .zero, rng: &rng)
        let results = actions.compactMap { action -> DiscoveryResult? in
            if case .notify(.discoveryResult(let result)) = action { result } else { nil }
        }
        #expect(results.map(\.outcome) == [.excludedByServiceResponseFilter])
    }
}
