import AwareProtocol
import AwareWire

extension DiscoverySuite.Builder {
    /// Service IDs: SHA-256 of the lower-cased name, first 6 octets (nan-wire-reference.md 2.4).
    func serviceIDs() throws -> [ConformanceTest] {
        [
            try test("WA/DISC/SID/BV-01", "Every publish carries the service ID of its name", tags: ["service-id"]) {
                context,
                suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active))
                let accessory = try context.require(scenario.accessoryAddress, "the accessory was heard")
                let publishes = scenario.publishes(from: accessory)
                try context.require(!publishes.isEmpty, "the accessory published")
                let expected = ServiceID(serviceName: service.name)
                let ids = Set(publishes.map(\.sda.serviceID))
                context.expect(
                    ids.contains(expected),
                    "a publish carries \(expected) = SHA-256(\"\(service.name.lowercased())\")[0..5]"
                )
            },
            try test(
                "WA/DISC/SID/BV-02",
                "A subscriber that writes the service name in upper case discovers it",
                tags: ["service-id"]
            ) { context, suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let upper = service.name.uppercased()
                let result = suite.discover(scenario, SubscribeConfiguration(serviceName: upper, mode: .active))
                context.expect(
                    result != nil,
                    "a subscribe for \(upper) discovers \(service.name) (names hash case-insensitively)"
                )
            },
            try test(
                "WA/DISC/SID/BI-03",
                "A subscribe for another service gets no answer",
                tags: ["service-id"],
                requires: [.solicitedPublish]
            ) { context, suite in
                let other = "_no-such-service._tcp"
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: other, mode: .active)) }
                scenario.pass(DiscoverySuite.quietPeriod)
                let instance = try context.require(
                    scenario.read { $0.subscribeInstances[other] },
                    "the subscribe started"
                )
                // Any unicast publish answering this subscribe is wrong, whatever service ID it names.
                let phone = scenario.phone.address
                let answers = scenario.publishes(from: nil).filter {
                    $0.frame.header.address1 == phone && $0.sda.requestorInstanceID == instance
                }
                context.expectEqual(answers.count, 0, "answers to a subscribe for \(other)")
            },
        ]
    }
}
