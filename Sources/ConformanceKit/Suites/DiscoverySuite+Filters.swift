import AwareCore
import AwareProtocol
import AwareWire

extension DiscoverySuite.Builder {
    /// The publisher filter the truth table is written against.
    static let tablePublisherFilter = "drone:*:v2"

    /// Subscriber filters and whether each matches `drone:*:v2`, worked out by hand from the
    /// rule in nan-wire-reference.md 2.4 (hostap `nan_de_filter_match`): items compare
    /// pairwise; an empty item on either side is a wildcard; a subscriber filter longer than
    /// the publisher's matches only if its extra items are wildcards; no filter matches.
    static let matchingFilterTable: [(subscriber: String?, matches: Bool)] = [
        (nil, true),
        ("drone", true),
        ("drone:*:v2", true),
        ("*:*:*", true),
        ("drone:x:v2", true),
        ("drone:*:v3", false),
        ("drone:*:v2:extra", false),
        ("drone:*:v2:*", true),
        ("cam", false),
        ("*", true),
        ("*:*:v2", true),
        ("Drone", false),
        ("hex:64726f6e65", true),
        ("drone:v1", true),
        ("*:*:v1", false),
        ("drone:*:v2:*:*", true),
    ]

    /// Matching filters in both directions (the truth table has 16 rows).
    func matchingFilters() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/MF/BV-01",
                "Truth table: the accessory's TX filter against the phone's RX filter (unsolicited publish)",
                tags: ["matching-filter"],
                requires: [.unsolicitedPublish],
                needsReconfigureWhen: Self.filterVariant { $0.publishesUnsolicited },
                brokenBy: ["omit-match-filter"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                try suite.runTruthTable(context, mode: .passive)
            },
            try test(
                "WA/DISC/MF/BV-02",
                "Truth table: the phone's TX filter against the accessory's RX filter (active subscribe)",
                tags: ["matching-filter"],
                requires: [.solicitedPublish],
                needsReconfigureWhen: Self.filterVariant { $0.answersSubscribes },
                brokenBy: ["ignore-match-filter"],
                steps: [.solicitedReply]
            ) { context, suite in
                try suite.runTruthTable(context, mode: .active)
            },
        ]
    }

    /// The truth table is written for the publisher filter ``tablePublisherFilter``: a profile
    /// whose service (the first that `qualifies`) has another needs a variant that sets it.
    static func filterVariant(_ qualifies: @escaping @Sendable (ServiceFacts) -> Bool) -> ProfileCondition {
        ProfileCondition("the truth table needs the matching filter \(tablePublisherFilter) on the service") {
            $0?.services.first(where: qualifies).map { $0.matchFilter != tablePublisherFilter } ?? false
        }
    }

    /// One subscribe per row, all at once; each row's outcome is judged on its own instance.
    /// Passive rows judge the accessory's TX filter in unsolicited publishes; active rows
    /// judge its RX filter through solicited replies only.
    private func runTruthTable(_ context: TestContext, mode: SubscribeMode) throws {
        let service = try self.service(context) { mode == .passive ? $0.publishesUnsolicited : $0.answersSubscribes }
        let variant: ProfileVariant? =
            service.matchFilter == Self.tablePublisherFilter
            ? nil
            : ProfileVariant([
                .setServiceField(
                    index: index(of: service, context),
                    key: "matchFilter",
                    json: "\"\(Self.tablePublisherFilter)\""
                )
            ])
        let scenario = try open(context, variant: variant)
        defer { scenario.finish() }
        let rows = Self.matchingFilterTable
        scenario.withPhone { phone in
            for row in rows {
                let filter = row.subscriber.map { try? MatchingFilter(spec: $0) } ?? nil
                phone.subscribe(SubscribeConfiguration(serviceName: service.name, mode: mode, matchingFilter: filter))
            }
        }
        let expectedMatches = rows.filter(\.matches).count
        scenario.wait(scenario.discoveryWindow) { phone in
            Set(phone.matchedResults(serviceName: service.name).map(\.subscribeInstanceID)).count >= expectedMatches
        }
        // Give the rows that must not match the same chance to (wrongly) match.
        scenario.pass(.seconds(2))
        let (instances, results) = scenario.read {
            ($0.startedSubscribes, $0.matchedResults(serviceName: service.name))
        }
        try context.require(instances.count == rows.count, "all \(rows.count) subscribes started")
        for (row, instance) in zip(rows, instances) {
            // Passive rows: the phone matched an unsolicited publish. Active rows: the accessory
            // answered that subscribe on the air.
            let matched =
                mode == .passive
                ? results.contains { $0.subscribeInstanceID == instance }
                : scenario.solicitedReplies(to: instance, service: service.name) > 0
            context.expect(
                matched == row.matches,
                "subscriber filter \(row.subscriber ?? "(none)") vs publisher \(Self.tablePublisherFilter): expected "
                    + (row.matches ? "a match" : "no match") + ", got " + (matched ? "a match" : "none")
            )
        }
    }

    /// Service response filters: MAC lists and Bloom filters, include and exclude (2.4).
    func responseFilters() throws -> [ConformanceTest] {
        // The answering rows judge replies (an accessory that never answers fails them); the silent rows
        // only an accessory that ignores the SRF fails.
        let cases: [(id: String, title: String, bloom: Bool, include: Bool, listsAccessory: Bool, answers: Bool)] = [
            (
                "WA/DISC/SRF/BV-01", "An SRF that includes the accessory's address gets an answer", false, true, true,
                true
            ),
            (
                "WA/DISC/SRF/BI-02", "An SRF that includes only other addresses gets no answer", false, true, false,
                false
            ),
            (
                "WA/DISC/SRF/BI-03", "An SRF that excludes the accessory's address gets no answer", false, false, true,
                false
            ),
            (
                "WA/DISC/SRF/BV-04", "A Bloom-filter SRF that includes the accessory gets an answer", true, true, true,
                true
            ),
            (
                "WA/DISC/SRF/BI-05", "A Bloom-filter SRF that excludes the accessory gets no answer", true, false, true,
                false
            ),
        ]
        return try cases.map { entry in
            try test(
                entry.id,
                entry.title,
                tags: ["service-response-filter"],
                requires: [.solicitedPublish],
                brokenBy: entry.answers ? ["no-solicited-reply"] : ["ignore-srf"],
                steps: entry.answers ? [.solicitedReply] : []
            ) { context, suite in
                let service = try suite.service(context) { $0.answersSubscribes }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                // Learn the accessory's address the way a phone would, if the target does not say.
                var accessory = scenario.session.accessoryAddress
                if accessory == nil {
                    accessory =
                        suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active))?
                        .publisherAddress
                }
                let address = try context.require(accessory, "the accessory's address is known")
                let other = MACAddress(0x02, 0x5A, 0x5A, 0x5A, 0x5A, 0x01)
                let listed = entry.listsAccessory ? [address, other] : [other]
                let filter =
                    entry.bloom
                    ? ServiceResponseFilter.bloom(addresses: listed, index: 1, length: 16, include: entry.include)
                    : ServiceResponseFilter(include: entry.include, addressSet: .addressList(listed))
                let before = scenario.read { $0.startedSubscribes.count }
                scenario.withPhone {
                    $0.subscribe(
                        SubscribeConfiguration(serviceName: service.name, mode: .active, serviceResponseFilter: filter)
                    )
                }
                scenario.pass(entry.answers ? DiscoverySuite.quietPeriod : DiscoverySuite.discoveryTimeout)
                let instance = try context.require(
                    scenario.read { $0.startedSubscribes.count > before ? $0.startedSubscribes[before] : nil },
                    "the phone's subscribe started"
                )
                let got = scenario.solicitedReplies(to: instance, service: service.name) > 0
                context.expect(
                    got == entry.answers,
                    entry.answers
                        ? "the accessory answers a subscribe whose SRF admits it"
                        : "the accessory must not answer a subscribe whose SRF leaves it out"
                )
            }
        }
    }
}

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
                needsReconfigure: true,
                brokenBy: ["ignore-range-limit"],
                steps: [.passiveDiscovery]
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
                needsReconfigure: true,
                brokenBy: ["ignore-range-limit"],
                steps: []
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
