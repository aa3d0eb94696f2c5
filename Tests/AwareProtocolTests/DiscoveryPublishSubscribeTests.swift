import AwareWire
import Testing

@testable import AwareProtocol

/// Publish type × subscribe type (nan-wire-reference.md 1.5, 2.4): unsolicited publishes reach
/// passive and active subscribers; solicited publishes answer only active subscribes, unicast;
/// solicited × passive never discovers.
@Suite struct DiscoveryPublishSubscribeTests {
    typealias Support = DiscoveryTestSupport

    struct Case: Sendable, CustomTestStringConvertible {
        var publish: PublishSolicitation
        var subscribe: SubscribeMode
        var discovers: Bool
        /// Whether the result came from a solicited reply; nil when either may arrive first.
        var solicited: Bool?
        var testDescription: String { "\(publish) × \(subscribe)" }
    }

    static let cases: [Case] = [
        Case(publish: .unsolicited, subscribe: .passive, discovers: true, solicited: false),
        Case(publish: .unsolicited, subscribe: .active, discovers: true, solicited: false),
        Case(publish: .solicited, subscribe: .passive, discovers: false, solicited: false),
        Case(publish: .solicited, subscribe: .active, discovers: true, solicited: true),
        Case(publish: .both, subscribe: .passive, discovers: true, solicited: false),
        Case(publish: .both, subscribe: .active, discovers: true, solicited: nil),
    ]

    @Test(arguments: cases) func publishTypeAgainstSubscribeType(_ test: Case) throws {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: test.publish)))
        // The subscriber starts first, so an active subscribe goes out before any unsolicited publish.
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: test.subscribe)))
        wire.run(for: .milliseconds(2_000))
        let results = wire.results(1)
        #expect(results.isEmpty == !test.discovers)
        guard test.discovers else {
            #expect(wire.replies(0).isEmpty)
            return
        }
        #expect(results.count == 1)
        if let solicited = test.solicited { #expect(results.contains { $0.solicited } == solicited) }
        #expect(!wire.replies(0).isEmpty == (test.publish.answersSubscribes && test.subscribe == .active))
    }

    @Test func aSolicitedReplyIsUnicastToTheSubscriberWithItsInstanceID() throws {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .solicited)))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: .active, instanceID: 42)))
        // The first Subscribe leaves within one announcement period (its random phase).
        wire.run(for: .milliseconds(150))
        let reply = try #require(wire.frames(from: 0).first?.frame)
        #expect(reply.header.address1 == Support.subscriber)
        #expect(reply.header.address3 == .nanNetworkID)
        let sda = try #require(Support.descriptor(of: reply))
        #expect(sda.type == .publish)
        #expect(sda.requestorInstanceID == 42)
        let subscribe = try #require(wire.frames(from: 1).first?.frame)
        #expect(subscribe.header.address1 == .nanNetworkID)
        #expect(Support.descriptor(of: subscribe)?.type == .subscribe)
        #expect(Support.descriptor(of: subscribe)?.requestorInstanceID == 0)
        let replied = try #require(wire.replies(0).first)
        #expect(
            replied
                == SubscriberReply(
                    publishInstanceID: 1,
                    subscriberAddress: Support.subscriber,
                    subscribeInstanceID: 42,
                    rssiDBm: -50,
                    serviceSpecificInfo: nil
                )
        )
        #expect(wire.results(1).first?.solicited == true)
    }

    @Test func anUnsolicitedOnlyPublisherDoesNotReplyToAnActiveSubscribe() {
        var wire = Support.pair()
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: .active)))
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .unsolicited)))
        wire.run(for: .milliseconds(1_000))
        #expect(wire.replies(0).isEmpty)
        #expect(wire.frames(from: 0).allSatisfy { $0.frame.header.address1 == .nanNetworkID })
        #expect(wire.results(1).count == 1)
    }

    @Test func serviceNamesCompareCaseInsensitively() {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: "_Drone-Service._UDP", solicitation: .unsolicited)))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_drone-service._udp")))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_drone-service._tcp")))
        wire.run(for: .milliseconds(150))
        #expect(wire.results(1).map(\.subscribeInstanceID) == [1])
        #expect(wire.results(1).first?.serviceID == ServiceID(serviceName: "_DRONE-service._udp"))
    }

    @Test func severalServicesAreDiscoveredSeparately() {
        var wire = Support.pair()
        for name in ["_drone-service._udp", "_camera._tcp", "_telemetry._udp"] {
            wire.command(0, .publish(PublishConfiguration(serviceName: name, solicitation: .both)))
        }
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_camera._tcp", mode: .active)))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_telemetry._udp")))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: "_missing._udp", mode: .active)))
        wire.run(for: .milliseconds(1_000))
        let found = wire.results(1).map { "\($0.subscribeInstanceID)->\($0.publishInstanceID) \($0.serviceName)" }
        #expect(found.sorted() == ["1->2 _camera._tcp", "2->3 _telemetry._udp"])
        #expect(wire.stations[0].discovery.publishInstanceIDs == [1, 2, 3])
    }

    @Test func aPublisherIsReportedOnceWhileNothingChanges() {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .both)))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service, mode: .active)))
        wire.run(for: .milliseconds(3_000))
        #expect(wire.frames(from: 0).count > 30)
        #expect(wire.results(1).count == 1)
        #expect(wire.replies(0).count == 1)
    }
}
