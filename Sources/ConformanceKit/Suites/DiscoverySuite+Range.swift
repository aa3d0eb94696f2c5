import AwareProtocol
import AwareWire

extension DiscoverySuite.Builder {
    /// A phone this far away is out of range: about −68 dBm on channel 6 under the indoor
    /// model, below the −60 dBm close-proximity threshold (nan-wire-reference.md 1.4).
    static let farDistance = 40.0

    /// Discovery Range Limited (SDA Service Control bit 5, nan-wire-reference.md 2.4).
    func rangeLimit() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/RNG/BV-01",
                "A range-limited service says so in its publishes and a phone close by finds it",
                tags: ["range"],
                needsReconfigure: true
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                let scenario = try suite.open(context, setting: "rangeLimited", to: "true", of: service, distance: 2)
                defer { scenario.finish() }
                let result = suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .passive))
                try context.require(result != nil, "a phone 2 m away discovers the range-limited service")
                let accessory = try context.require(scenario.accessoryAddress, "the accessory was heard")
                let publishes = scenario.publishes(from: accessory).filter {
                    $0.sda.serviceID == ServiceID(serviceName: service.name)
                }
                try context.require(!publishes.isEmpty, "publishes were heard")
                context.expect(
                    publishes.allSatisfy(\.sda.discoveryRangeLimited),
                    "every publish of the service sets Discovery Range Limited"
                )
            },
            try test(
                "WA/DISC/RNG/BI-02",
                "A range-limited service does not answer a phone out of range",
                tags: ["range"],
                requires: [.solicitedPublish],
                needsReconfigure: true
            ) { context, suite in
                let service = try suite.service(context) { $0.answersSubscribes }
                let scenario = try suite.open(
                    context,
                    setting: "rangeLimited",
                    to: "true",
                    of: service,
                    distance: Self.farDistance
                )
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .active)) }
                scenario.pass(DiscoverySuite.discoveryTimeout)
                let instance = try context.require(
                    scenario.read { $0.subscribeInstances[service.name] },
                    "the phone's subscribe started"
                )
                context.expectEqual(
                    scenario.solicitedReplies(to: instance, service: service.name),
                    0,
                    "answers to a phone \(Int(Self.farDistance)) m away"
                )
                let found = scenario.read { $0.matchedResults(serviceName: service.name) }
                context.expect(found.isEmpty, "a phone out of range must not discover a range-limited service")
            },
        ]
    }
}
