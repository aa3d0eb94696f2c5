import AwareCore
import AwareProtocol
import AwareWire

extension DiscoverySuite.Builder {
    /// A second service for profiles that publish one, so the several-services test always runs.
    static let secondService = #"{"name": "_drone-ctl._udp", "publishType": "both"}"#

    /// Several services published at once, each with its own instance.
    func severalServices() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/MULTI/BV-01",
                "Every service of the profile is discovered, each with its own instance",
                tags: ["services"],
                needsReconfigureWhen: ProfileCondition("the profile publishes one service; the test adds a second") {
                    ($0?.services.count ?? 0) < 2
                },
                brokenBy: ["first-service-only"],
                steps: [.discovery],
                // A service that only answers subscribes is found through replies alone: faults that stop or
                // misdirect replies fail this test too when the profile has one.
                alsoBrokenBy: [
                    ConditionalFaults(
                        ["no-solicited-reply", "answer-any-service"],
                        when: ProfileCondition("another service of the profile only answers subscribes") {
                            $0?.services.dropFirst().contains { !$0.publishesUnsolicited } ?? false
                        }
                    )
                ]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                var names = profile.services.map(\.name)
                var variant: ProfileVariant?
                if names.count < 2 {
                    variant = ProfileVariant([.addService(json: Self.secondService)])
                    names.append("_drone-ctl._udp")
                }
                let scenario = try suite.open(context, variant: variant)
                defer { scenario.finish() }
                scenario.withPhone { phone in
                    for name in names { phone.subscribe(SubscribeConfiguration(serviceName: name, mode: .active)) }
                }
                scenario.wait(scenario.discoveryWindow) { phone in
                    names.allSatisfy { !phone.matchedResults(serviceName: $0).isEmpty }
                }
                let results = scenario.read { $0.matchedResults() }
                var instances: [String: UInt8] = [:]
                for name in names {
                    guard let result = results.first(where: { $0.serviceName == name }) else {
                        context.fail("\(name) was not discovered")
                        continue
                    }
                    instances[name] = result.publishInstanceID
                    context.expect(result.publishInstanceID != 0, "\(name) has a non-zero instance ID")
                }
                context.expectEqual(Set(instances.values).count, instances.count, "distinct instance IDs per service")
            }
        ]
    }

    /// Publish updates: new service info is announced with a new Service Update Indicator
    /// (nan-wire-reference.md 2.5), so phones that already found the accessory notice.
    func updates() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/UPD/BV-01",
                "A publish update brings new service info and a new service update indicator",
                tags: ["update"],
                needsPublishUpdate: true,
                brokenBy: ["no-service-update-indicator"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let first = try suite.requireDiscovery(context, scenario, service.name, mode: .passive)
                do {
                    try scenario.session.updateServiceInfo(service: service.name, txt: ["state": "updated"])
                } catch {
                    throw EnvironmentFailure("cannot drive a publish update: \(error)")
                }
                let updated = scenario.wait(scenario.discoveryWindow) { phone in
                    phone.matchedResults(serviceName: service.name).contains {
                        $0.txtRecord?.value(forKey: "state") == "updated"
                    }
                }
                context.expect(updated, "the phone sees the new TXT value state=updated")
                if updated {
                    let second = scenario.read {
                        $0.matchedResults(serviceName: service.name).last {
                            $0.txtRecord?.value(forKey: "state") == "updated"
                        }
                    }
                    context.expect(
                        second?.serviceUpdateIndicator != nil
                            && second?.serviceUpdateIndicator != first.serviceUpdateIndicator,
                        "the service update indicator changed (was \(first.serviceUpdateIndicator.map(String.init) ?? "absent"), "
                            + "now \(second?.serviceUpdateIndicator.map(String.init) ?? "absent"))"
                    )
                }
            }
        ]
    }

    /// Publishes of an accessory that pairs advertise it: DCEA pairing setup, NPBA with the
    /// bootstrapping methods (nan-wire-reference.md 2.16, 2.18, 3.3).
    func pairingAdvertisement() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/ADV/BV-01",
                "Publishes advertise pairing setup (DCEA) and the bootstrapping methods (NPBA)",
                tags: ["pairing"],
                requires: [.pairing],
                brokenBy: ["no-pairing-advertisement"],
                steps: [.discovery]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "a profile")
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                let result = try suite.requireDiscovery(context, scenario, service.name, mode: .active)
                let dcea = try context.require(result.deviceCapabilityExtension, "the publish carries a DCEA")
                context.expect(dcea.pairingSetupEnabled, "DCEA Pairing Setup Enabled")
                let methods = try context.require(result.bootstrappingMethods, "the publish carries an NPBA advertise")
                if profile.bootstrappingMethods.contains("pinDisplay") {
                    context.expect(methods.contains(.pinCodeDisplay), "NPBA advertises PIN code (display)")
                }
            }
        ]
    }

    /// Cluster membership and unsynchronized discovery (nan-wire-reference.md 1.4, 1.5).
    func clusterAndUSD() throws -> [ConformanceTest] {
        [
            try test(
                "WA/DISC/SYNC/BV-01",
                "The accessory joins the phone's cluster and follows its higher-ranked anchor master",
                tags: ["synchronization"],
                needsCluster: true,
                // With publishes unicast, the few multicast ones come before the accessory joins the
                // phone's cluster, under its own Cluster ID.
                brokenBy: ["ignore-beacons", "unicast-to-passive", "no-unsolicited-publish"],
                steps: []
            ) { context, suite in
                let service = try suite.firstService(context)
                let scenario = try suite.open(context)
                defer { scenario.finish() }
                suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .active))
                scenario.pass(.seconds(4))
                let status = try context.require(scenario.read { $0.device.cluster }, "the phone is in a cluster")
                let accessory = try context.require(scenario.accessoryAddress, "the accessory was heard")
                let publishes = scenario.publishes(from: accessory).filter { $0.frame.header.address1.isGroup }
                try context.require(!publishes.isEmpty, "the accessory published")
                for entry in publishes.suffix(3) {
                    context.expectEqual(
                        entry.frame.header.address3,
                        status.clusterID,
                        "A3 (Cluster ID) of the accessory's publish"
                    )
                }
                // The phone's master preference (128) outranks an accessory's default, so once
                // the accessory is synchronized its beacons, if it still sends any, must name
                // the phone's rank as anchor master (reference 1.4).
                let recent = scenario.beacons(from: accessory).suffix(4)
                for beacon in recent {
                    context.expectEqual(
                        beacon.cluster.anchorMasterRank,
                        status.anchorMasterRank,
                        "anchor master rank in the accessory's beacon"
                    )
                }
            },
            try test(
                "WA/DISC/USD/BV-01",
                "Unsynchronized discovery: publishes to the NAN Network ID on channel 6",
                tags: ["usd"],
                requires: [.unsolicitedPublish],
                // USD or a cluster is how the accessory is started (accessory-emu --unsynchronized);
                // the profile does not say which a device uses.
                needsReconfigure: true,
                brokenBy: ["no-unsolicited-publish"],
                steps: [.passiveDiscovery]
            ) { context, suite in
                let service = try suite.service(context) { $0.publishesUnsolicited }
                let scenario = try suite.open(context, unsynchronized: true)
                defer { scenario.finish() }
                let result = suite.discover(scenario, SubscribeConfiguration(serviceName: service.name, mode: .passive))
                let found = try context.require(result, "a USD subscriber discovers the accessory")
                context.expectEqual(found.channel, .channel6, "USD channel")
                context.expectEqual(found.addressThree, MACAddress.nanNetworkID, "A3 of a USD publish")
            },
        ]
    }
}
