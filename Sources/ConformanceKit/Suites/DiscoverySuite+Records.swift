import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

extension DiscoverySuite.Builder {
    /// TTL: the publish ends when its time to live runs out (nl80211 termination reason 1).
    func timeToLive() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/TTL/BV-01",
                "A publish with a TTL stops when it runs out and says why",
                tags: ["ttl"],
                needsReconfigure: true,
                brokenBy: ["ignore-ttl"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                // Long enough for two of the publishes a power-saving accessory states it sends
                // (publishPeriodDWs: every Nth window, 512 TU apart), and at least 3 s.
                let period = DiscoveryWindowTiming.period.seconds * Double(service.publishPeriodDWs ?? 1)
                let ttl = max(3, Int((2 * period).rounded(.up)))
                let scenario = try suite.open(context, setting: "ttlSeconds", to: "\(ttl)", of: service)
                defer { scenario.finish() }
                let opened = scenario.session.now
                suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .passive))
                scenario.pass((opened + .seconds(Int64(ttl + 4))) - scenario.session.now)
                let accessory = try context.require(
                    scenario.accessoryAddress,
                    "the accessory was heard before its TTL ran out"
                )
                let cutoff = CaptureTap.defaultEpochNanoseconds + (opened + .seconds(Int64(ttl + 2))).nanoseconds
                let ours = scenario.publishes(from: accessory).filter {
                    $0.sda.serviceID == ServiceID(serviceName: service.name)
                }
                try context.require(!ours.isEmpty, "publishes of \(service.name) were heard before its TTL ran out")
                let late = ours.filter { $0.time > cutoff }
                context.expectEqual(late.count, 0, "publishes of \(service.name) more than 2 s after its \(ttl) s TTL")
                let events = scenario.session.accessoryEvents
                if !events.isEmpty {
                    context.expect(
                        events.contains { $0.contains("\"event\":\"terminated\"") && $0.contains("TTL expired") },
                        "the accessory reports the publish terminated with reason \"TTL expired\""
                    )
                }
            }
        ]
    }

    /// The DNS-SD TXT record the phone reads (apple-peer-model.md: vendorName, modelName,
    /// pairingName, each read as at most 63 octets of UTF-8).
    func txtRecord() throws -> [ConformanceTest] {
        let fields: [(id: String, key: String, title: String, requires: [TestRequirement], brokenBy: [FaultName])] = [
            (
                "WA/DISC/TXT/BV-01", "vendorName", "The TXT record's vendorName is the profile's", [],
                ["vendor-name-uppercased", "long-txt-value"]
            ),
            (
                "WA/DISC/TXT/BV-02", "modelName", "The TXT record's modelName is the profile's", [],
                ["wrong-model-name", "missing-model-name"]
            ),
            (
                "WA/DISC/TXT/BV-03", "pairingName", "The TXT record's pairingName is the profile's", [.pairing],
                ["missing-pairing-name"]
            ),
        ]
        var tests = try fields.map { field in
            try test(
                field.id,
                field.title,
                tags: ["txt"],
                requires: field.requires,
                brokenBy: field.brokenBy,
                steps: [.discovery]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                let expected: String? =
                    switch field.key {
                    case "vendorName": profile.vendorName
                    case "modelName": profile.modelName
                    default: profile.pairingName
                    }
                let want = try context.require(expected, "the profile gives \(field.key)")
                let txt = try suite.discoveredTXT(context)
                context.expectEqual(txt.value(forKey: field.key), want, "TXT \(field.key)")
            }
        }
        tests.append(
            try test(
                "WA/DISC/TXT/BV-04",
                "Service info is a Bonjour TXT record whose names read as the profile's on the run's phone",
                tags: ["txt", "phone-behaviour"],
                brokenBy: ["long-txt-value"],
                steps: [.discovery]
            ) { context, suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.requireDiscovery(context, scenario, service.name, mode: .active)
                let info = try context.require(result.serviceSpecificInfo, "the publish carries SDEA service info")
                context.expectEqual(info.oui, [0x50, 0x6F, 0x9A], "service info OUI")
                context.expectEqual(info.protocolType, .bonjour, "service protocol type")
                let txt = try context.require(info.txtRecord, "the service info is a DNS-SD TXT record")
                // A value over Apple's documented 63 octets is not a failure in itself: each phone
                // reads it its own way (an iPhone may cut it, Android's system passes it whole;
                // docs/phones.md). What counts is that what this phone reads is the profile's name
                // read the same way; a value the accessory lengthened reads differently on every
                // phone. Keys match whatever their case (RFC 6763 6.4).
                let profile = try context.require(context.capabilities.profile, "a profile")
                let reading = context.phone.longTXTValues
                let names = [
                    ("vendorName", profile.vendorName), ("modelName", profile.modelName),
                    ("pairingName", profile.pairingName),
                ]
                // A missing or different value that fits is WA/DISC/TXT/BV-01 to BV-03's to judge;
                // this test judges what a phone makes of one that does not fit.
                for case (let key, let expected?) in names {
                    guard let sent = txt.valueOctets(forKey: key), sent.count > 63 else { continue }
                    context.log(
                        "txt_value_over_63_octets",
                        [
                            "key": .string(key), "octets": .integer(Int64(sent.count)),
                            "phone": .string(context.phone.name.rawValue), "read": .string("\(reading)"),
                        ]
                    )
                    context.expectEqual(
                        reading.value(of: key, in: txt),
                        reading.read(Array(expected.utf8)),
                        "TXT \(key) as the \(context.phone.name.rawValue) phone reads it (\(reading))"
                    )
                }
            }
        )
        return tests
    }

    /// Discovers the first service and returns its TXT record.
    func discoveredTXT(_ context: TestContext) throws -> DNSSDTXTRecord {
        let service = try firstService(context)
        let scenario = try open(context)
        defer { scenario.finish() }
        let result = try context.require(
            discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active)),
            "the accessory was discovered"
        )
        return try context.require(result.txtRecord, "the publish carries a DNS-SD TXT record")
    }

    /// What an AccessorySetupKit picker offers (apple-peer-model.md 2).
    func descriptors() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/ASK/BV-01",
                "A literal vendor and model descriptor offers the accessory under its pairing name",
                tags: ["descriptor"],
                brokenBy: [
                    "long-txt-value", "missing-model-name", "missing-pairing-name", "vendor-name-uppercased",
                    "wrong-model-name",
                ],
                steps: [.discovery]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                let offered = try suite.offered(
                    context,
                    DiscoveryDescriptor(
                        serviceName: try suite.firstService(context).name,
                        vendorName: profile.vendorName,
                        modelName: profile.modelName,
                        comparison: .literal
                    )
                )
                let accessory = try context.require(offered.first, "the accessory is offered")
                if let pairingName = profile.pairingName {
                    context.expectEqual(accessory.pairingName, pairingName, "the name shown")
                }
            },
            try test(
                "WA/DISC/ASK/BV-02",
                "A case-insensitive descriptor written in upper case offers the accessory",
                tags: ["descriptor"],
                brokenBy: ["long-txt-value", "missing-model-name", "wrong-model-name"],
                steps: [.discovery]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                let offered = try suite.offered(
                    context,
                    DiscoveryDescriptor(
                        serviceName: try suite.firstService(context).name,
                        vendorName: profile.vendorName?.uppercased(),
                        modelName: profile.modelName?.uppercased(),
                        comparison: .caseInsensitive
                    )
                )
                context.expect(!offered.isEmpty, "the accessory is offered")
            },
            try test(
                "WA/DISC/ASK/BV-03",
                "The TXT record carries both vendorName and modelName, so a picker can offer it",
                tags: ["descriptor"],
                brokenBy: ["missing-model-name"],
                steps: [.discovery]
            ) { context, suite in
                let offered = try suite.offered(
                    context,
                    DiscoveryDescriptor(serviceName: try suite.firstService(context).name)
                )
                context.expect(!offered.isEmpty, "a descriptor with no name matchers offers the accessory")
            },
            try test(
                "WA/DISC/ASK/BI-04",
                "A literal descriptor with the vendor in upper case does not offer the accessory",
                tags: ["descriptor"],
                brokenBy: ["vendor-name-uppercased"],
                steps: [.discovery]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                let vendor = try context.require(profile.vendorName, "the profile gives vendorName")
                guard vendor.uppercased() != vendor else { try context.skip("the vendor name is already upper case") }
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                try context.require(
                    suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active)) != nil,
                    "the accessory was discovered"
                )
                let descriptor = DiscoveryDescriptor(
                    serviceName: service.name,
                    vendorName: vendor.uppercased(),
                    modelName: profile.modelName,
                    comparison: .literal
                )
                let offered = scenario.read { $0.offered(with: descriptor) }
                context.expect(offered.isEmpty, "a literal descriptor must not match \"\(vendor.uppercased())\"")
            },
        ]
    }

    func offered(_ context: TestContext, _ descriptor: DiscoveryDescriptor) throws -> [OfferedAccessory] {
        let scenario = try open(context)
        defer { scenario.finish() }
        discover(scenario, SubscribeConfiguration(serviceName: descriptor.serviceName, mode: .active))
        let (offered, results) = scenario.read { ($0.offered(with: descriptor), $0.matchedResults()) }
        for result in results {
            if case .failure(let reason) = descriptor.evaluate(result) {
                context.log(
                    "not_offered",
                    ["publisher": .string(result.publisherAddress.description), "reason": .string("\(reason)")]
                )
            }
        }
        return offered
    }
}
