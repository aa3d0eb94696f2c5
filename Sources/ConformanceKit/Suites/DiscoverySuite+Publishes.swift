import AwareCore
import AwareProtocol
import AwareWire

extension DiscoverySuite.Builder {
    /// Unsolicited/solicited publish × passive/active subscribe (Wi-Fi Aware service discovery;
    /// nan-wire-reference.md 1.3, 1.5).
    func publishTypes() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/PUB/BV-01",
                "A passive subscriber discovers an unsolicited publish",
                tags: ["publish"],
                requires: [.unsolicitedPublish],
                brokenBy: ["no-unsolicited-publish"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .passive))
                let found = try context.require(
                    result,
                    "a passive subscribe for \(service.name) discovers the accessory"
                )
                context.expect(!found.solicited, "the result came from an unsolicited publish")
            },
            try test(
                "WA/DISC/PUB/BV-07",
                "A power-saving publisher keeps to its stated publish period, and the phone's search outlasts two",
                tags: ["publish", "phone-behaviour"],
                requires: [.publishPeriod],
                brokenBy: ["publish-period-slower"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited && $0.publishPeriodDWs != nil }
                let windows = try context.require(service.publishPeriodDWs, "the profile states the publish period")
                // Windows come 512 TU apart (nan-wire-reference.md 1.4).
                let period = DiscoveryWindowTiming.period.nanoseconds * Int64(windows)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .passive)) }
                scenario.pass(Interval(nanoseconds: period * 4 + DiscoveryWindowTiming.period.nanoseconds))
                let serviceID = ServiceID(serviceName: service.name)
                let times = scenario.publishes(from: scenario.accessoryAddress)
                    .filter { $0.frame.header.address1.isGroup && $0.sda.serviceID == serviceID }
                    .map { Int64($0.time) }
                // One announcement may go out on each band's window of a 512 TU interval: those
                // count as one.
                var announcements: [Int64] = []
                for time in times.sorted() where announcements.last.map({ time - $0 > period / 2 }) ?? true {
                    announcements.append(time)
                }
                let gaps = zip(announcements.dropFirst(), announcements).map { $0 - $1 }
                let longest = gaps.max() ?? 0
                context.log(
                    "publish_period",
                    [
                        "statedDWs": .integer(Int64(windows)), "announcements": .integer(Int64(announcements.count)),
                        "longestGapSeconds": .double(Double(longest) / 1e9),
                    ]
                )
                context.expect(
                    announcements.count >= 3,
                    "unsolicited publishes in 4 stated periods of \(windows) windows: expected at least 3, got "
                        + "\(announcements.count)"
                )
                // A window's frames go out anywhere in its 16 TU, so a gap may exceed the period by that.
                let allowed = period + DiscoveryWindowTiming.length.nanoseconds
                context.expect(
                    longest <= allowed,
                    "the longest gap between unsolicited publishes is \(format(Double(longest) / 1e9)) s; the profile "
                        + "states every \(windows) windows (\(format(Double(period) / 1e9)) s)"
                )
                let window = context.phone.discoveryWindow
                context.expect(
                    2 * period <= window.nanoseconds,
                    "the \(context.phone.name.rawValue) phone searches for \(Int(window.seconds)) s, less than two "
                        + "stated periods (\(format(Double(2 * period) / 1e9)) s): a passive phone can miss the accessory"
                )
                context.expect(
                    !scenario.read { $0.matchedResults(serviceName: service.name) }.isEmpty,
                    "the passive phone discovered \(service.name)"
                )
            },
            try test(
                "WA/DISC/PUB/BV-02",
                "An active subscriber gets a solicited reply",
                tags: ["publish"],
                requires: [.solicitedPublish],
                brokenBy: ["no-solicited-reply"],
                steps: [.solicitedReply]
            ) { context, suite in
                let service = try suite.service(context) { $0.answersSubscribes }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .active)) }
                scenario.wait(scenario.discoveryWindow) { !$0.matchedResults(serviceName: service.name).isEmpty }
                scenario.pass(.seconds(2))
                let instance = try context.require(
                    scenario.read { $0.subscribeInstances[service.name] },
                    "the phone's subscribe started"
                )
                context.expect(
                    scenario.solicitedReplies(to: instance, service: service.name) > 0,
                    "the accessory answers an active subscribe for \(service.name) with a unicast publish"
                )
            },
            try test(
                "WA/DISC/PUB/BI-03",
                "A solicited-only publish is never discovered by a passive subscriber",
                tags: ["publish"],
                needsReconfigure: true,
                brokenBy: ["unsolicited-when-solicited-only"],
                steps: []
            ) { context, suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context, setting: "publishType", to: "\"solicited\"", of: service)
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .passive)) }
                scenario.pass(DiscoverySuite.discoveryTimeout)
                let results = scenario.read { $0.matchedResults(serviceName: service.name) }
                context.expect(results.isEmpty, "a passive subscriber must not discover a solicited-only service")
                let unsolicited = scenario.publishes(from: scenario.session.accessoryAddress).filter {
                    $0.frame.header.address1.isGroup
                }
                context.expectEqual(unsolicited.count, 0, "multicast publishes from a solicited-only service")
            },
            try test(
                "WA/DISC/PUB/BV-04",
                "An active subscriber discovers an unsolicited-only publish",
                tags: ["publish"],
                needsReconfigure: true,
                brokenBy: ["no-unsolicited-publish"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context, setting: "publishType", to: "\"unsolicited\"", of: service)
                defer { scenario.finish() }
                let result = suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active))
                context.expect(result != nil, "an active subscriber discovers an unsolicited-only service")
            },
            try test(
                "WA/DISC/PUB/BV-05",
                "Unsolicited publishes go to the NAN Network ID, not to one subscriber",
                tags: ["publish", "addressing"],
                requires: [.unsolicitedPublish],
                brokenBy: ["no-unsolicited-publish", "unicast-to-passive"],
                steps: []
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                // An active subscribe first, so a careless accessory knows an address to misuse.
                suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active))
                scenario.pass(.seconds(2))
                let accessory = try context.require(scenario.accessoryAddress, "the accessory was heard")
                let unsolicited = scenario.publishes(from: accessory).filter { $0.sda.requestorInstanceID == 0 }
                try context.require(!unsolicited.isEmpty, "the accessory sent unsolicited publishes")
                for entry in unsolicited {
                    context.expectEqual(
                        entry.frame.header.address1,
                        MACAddress.nanNetworkID,
                        "A1 of an unsolicited publish (nan-wire-reference.md 1.3)"
                    )
                }
            },
            try test(
                "WA/DISC/PUB/BV-06",
                "A solicited reply is unicast to the subscriber and names its instance",
                tags: ["publish", "addressing"],
                requires: [.solicitedPublish],
                brokenBy: ["no-solicited-reply"],
                steps: [.solicitedReply]
            ) { context, suite in
                let service = try suite.service(context) { $0.answersSubscribes }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                scenario.withPhone { $0.subscribe(SubscribeConfiguration(serviceName: service.name, mode: .active)) }
                scenario.wait(scenario.discoveryWindow) {
                    $0.matchedResults(serviceName: service.name).contains { $0.solicited }
                }
                let phone = scenario.phone.address
                let subscribeID = scenario.read { $0.subscribeInstances[service.name] }
                let replies = scenario.publishes(from: nil).filter { $0.frame.header.address1 == phone }
                let reply = try context.require(replies.first, "a unicast publish to the phone")
                context.expectEqual(
                    reply.sda.requestorInstanceID,
                    subscribeID ?? 0,
                    "Requestor Instance ID of the reply"
                )
                context.expect(reply.sda.instanceID != 0, "the reply's Instance ID is not 0")
                context.expectEqual(reply.sda.serviceID, ServiceID(serviceName: service.name), "the reply's Service ID")
            },
        ]
    }
}

extension DiscoverySuite.Builder {
    /// Service IDs: SHA-256 of the lower-cased name, first 6 octets (nan-wire-reference.md 2.4).
    func serviceIDs() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/SID/BV-01",
                "Every publish carries the service ID of its name",
                tags: ["service-id"],
                brokenBy: ["wrong-service-id"],
                steps: [.discovery]
            ) { context, suite in
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
                tags: ["service-id"],
                brokenBy: ["wrong-service-id"],
                steps: [.discovery]
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
                requires: [.solicitedPublish],
                brokenBy: ["answer-any-service"],
                steps: []
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
