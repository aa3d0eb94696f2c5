import AwareCore
import AwareWire
import Testing

@testable import AwareProtocol

/// Instance IDs are 1...255, never 0 (nan-wire-reference.md 2.4, 5).
@Suite struct DiscoveryInstanceIDTests {
    typealias Support = DiscoveryTestSupport

    private func started(_ actions: [DiscoveryAction]) -> [UInt8] {
        actions.compactMap { action in
            switch action {
            case .notify(.publishStarted(let id, _)), .notify(.subscribeStarted(let id, _)): id
            default: nil
            }
        }
    }

    private func rejected(_ actions: [DiscoveryAction]) -> DiscoveryCommandError? {
        for case .notify(.commandRejected(let error)) in actions { return error }
        return nil
    }

    @Test func lowestFreeIDsAreSharedByPublishAndSubscribe() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let publish = PublishConfiguration(serviceName: "a", solicitation: .solicited)
        var ids: [UInt8] = []
        ids += started(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng))
        ids += started(engine.handle(.command(.subscribe(.init(serviceName: "b"))), now: .zero, rng: &rng))
        var requested = publish
        requested.instanceID = 7
        ids += started(engine.handle(.command(.publish(requested)), now: .zero, rng: &rng))
        ids += started(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng))
        #expect(ids == [1, 2, 7, 3])
        _ = engine.handle(.command(.cancelPublish(instanceID: 2)), now: .zero, rng: &rng)
        _ = engine.handle(.command(.cancelSubscribe(instanceID: 2)), now: .zero, rng: &rng)
        #expect(started(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)) == [2])
        #expect(engine.publishInstanceIDs == [1, 2, 3, 7])
    }

    @Test func zeroAndTakenIDsAreRefused() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        var publish = PublishConfiguration(serviceName: "a", solicitation: .solicited, instanceID: 0)
        #expect(rejected(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)) == .instanceIDZero)
        publish.instanceID = 9
        _ = engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)
        #expect(rejected(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)) == .instanceIDInUse(9))
        #expect(engine.publishInstanceIDs == [9])
    }

    @Test func allTwoHundredFiftyFiveAreUsableThenNoneIsLeft() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        let publish = PublishConfiguration(serviceName: "a", solicitation: .solicited)
        for _ in 1...255 { _ = engine.handle(.command(.publish(publish)), now: .zero, rng: &rng) }
        #expect(engine.publishInstanceIDs == Array(1...255))
        #expect(rejected(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng)) == .noFreeInstanceID)
    }

    @Test func unknownInstancesAndOversizedFiltersAreRefused() {
        var engine = DiscoveryEngine(configuration: DiscoveryConfiguration(address: Support.publisher))
        var rng = SeededGenerator(seed: 1)
        #expect(
            rejected(engine.handle(.command(.cancelPublish(instanceID: 4)), now: .zero, rng: &rng))
                == .unknownInstance(4)
        )
        let long = MatchingFilter(items: [[UInt8](repeating: 1, count: 255)])
        let publish = PublishConfiguration(serviceName: "a", matchingFilter: long)
        #expect(
            rejected(engine.handle(.command(.publish(publish)), now: .zero, rng: &rng))
                == .matchingFilterTooLong(octets: 256)
        )
        let followUp = FollowUpRequest(localInstanceID: 3, peerAddress: Support.subscriber, peerInstanceID: 1)
        #expect(
            rejected(engine.handle(.command(.transmitFollowUp(followUp)), now: .zero, rng: &rng))
                == .followUpFromUnknownInstance(3)
        )
    }
}
