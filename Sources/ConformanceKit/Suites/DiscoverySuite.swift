import AwareCore
import AwareProtocol
import AwareWire

/// The discovery test group, `WA/DISC/*`: what a phone needs from an accessory before it can
/// pair — publish and subscribe types, service IDs, matching filters both ways, service
/// response filters, TTL, range limit, the TXT record the phone reads, AccessorySetupKit-style
/// descriptors, several services, publish updates, cluster membership and USD.
///
/// Every test has a fault of the emulator that makes it fail (``expectedFailures``), checked by
/// `aware-conform selftest`.
public enum DiscoverySuite {
    /// How long a test waits for something that should happen (or makes sure something does
    /// not). Virtual on the embedded target, real on spawn and socket.
    static let discoveryTimeout = Interval.seconds(8)
    static let quietPeriod = Interval.seconds(4)

    /// The tests, run against `target` with `faults` switched on in the accessory.
    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        let suite = Builder(target: target, faults: faults)
        let groups: [() throws -> [ConformanceTest]] = [
            suite.publishTypes, suite.serviceIDs, suite.matchingFilters, suite.responseFilters, suite.timeToLive,
            suite.txtRecord, suite.descriptors, suite.severalServices, suite.updates, suite.pairingAdvertisement,
            suite.clusterAndUSD, suite.rangeLimit,
        ]
        var tests: [ConformanceTest] = []
        for group in groups { tests += try group() }
        return tests
    }

    /// The tests `fault` must make fail against an accessory with `profile`: the calibrated set
    /// (written for a first service published both ways, as the drone's is), plus what the
    /// profile's other services add: a service that only answers subscribes can only be found
    /// through replies, so faults that stop replies also fail the several-services test.
    public static func expectedFailures(for fault: String, profile: ProfileFacts?) -> Set<String> {
        var expected = expectedFailures[fault] ?? []
        let repliesOnly = profile?.services.dropFirst().contains { !$0.publishesUnsolicited } ?? false
        if repliesOnly && (fault == "no-solicited-reply" || fault == "answer-any-service") {
            expected.insert("WA/DISC/MULTI/BV-01")
        }
        return expected
    }

    /// For each fault, the tests it must make fail; every other applicable test must pass.
    public static let expectedFailures: [String: Set<String>] = [
        "no-unsolicited-publish": [
            "WA/DISC/PUB/BV-01", "WA/DISC/PUB/BV-04", "WA/DISC/PUB/BV-05", "WA/DISC/USD/BV-01", "WA/DISC/MF/BV-01",
            "WA/DISC/SYNC/BV-01", "WA/DISC/UPD/BV-01", "WA/DISC/TTL/BV-01", "WA/DISC/RNG/BV-01",
        ],
        "no-solicited-reply": [
            "WA/DISC/PUB/BV-02", "WA/DISC/PUB/BV-06", "WA/DISC/SRF/BV-01", "WA/DISC/SRF/BV-04", "WA/DISC/MF/BV-02",
        ],
        "unsolicited-when-solicited-only": ["WA/DISC/PUB/BI-03"],
        // With publishes unicast, the few multicast ones come before the accessory joins the
        // phone's cluster, under its own Cluster ID.
        "unicast-to-passive": ["WA/DISC/PUB/BV-05", "WA/DISC/SYNC/BV-01"],
        "wrong-service-id": [
            "WA/DISC/PUB/BV-01", "WA/DISC/PUB/BV-02", "WA/DISC/PUB/BV-04", "WA/DISC/PUB/BV-06", "WA/DISC/SID/BV-01",
            "WA/DISC/SID/BV-02", "WA/DISC/MF/BV-01", "WA/DISC/MF/BV-02", "WA/DISC/SRF/BV-01", "WA/DISC/SRF/BV-04",
            "WA/DISC/TXT/BV-01", "WA/DISC/TXT/BV-02", "WA/DISC/TXT/BV-03", "WA/DISC/TXT/BV-04", "WA/DISC/ASK/BV-01",
            "WA/DISC/ASK/BV-02", "WA/DISC/ASK/BV-03", "WA/DISC/MULTI/BV-01", "WA/DISC/UPD/BV-01", "WA/DISC/ADV/BV-01",
            "WA/DISC/USD/BV-01", "WA/DISC/TTL/BV-01", "WA/DISC/ASK/BI-04", "WA/DISC/RNG/BV-01",
        ],
        "answer-any-service": ["WA/DISC/SID/BI-03"],
        "ignore-match-filter": ["WA/DISC/MF/BV-02"],
        "omit-match-filter": ["WA/DISC/MF/BV-01"],
        "ignore-srf": ["WA/DISC/SRF/BI-02", "WA/DISC/SRF/BI-03", "WA/DISC/SRF/BI-05"],
        "ignore-ttl": ["WA/DISC/TTL/BV-01"],
        "vendor-name-uppercased": ["WA/DISC/TXT/BV-01", "WA/DISC/ASK/BV-01", "WA/DISC/ASK/BI-04"],
        "wrong-model-name": ["WA/DISC/TXT/BV-02", "WA/DISC/ASK/BV-01", "WA/DISC/ASK/BV-02"],
        "missing-model-name": [
            "WA/DISC/TXT/BV-02", "WA/DISC/ASK/BV-01", "WA/DISC/ASK/BV-02", "WA/DISC/ASK/BV-03",
        ],
        "missing-pairing-name": ["WA/DISC/TXT/BV-03", "WA/DISC/ASK/BV-01"],
        "long-txt-value": ["WA/DISC/TXT/BV-01", "WA/DISC/TXT/BV-04", "WA/DISC/ASK/BV-01", "WA/DISC/ASK/BV-02"],
        "first-service-only": ["WA/DISC/MULTI/BV-01"],
        "no-service-update-indicator": ["WA/DISC/UPD/BV-01"],
        "no-pairing-advertisement": ["WA/DISC/ADV/BV-01"],
        "ignore-beacons": ["WA/DISC/SYNC/BV-01"],
        "ignore-range-limit": ["WA/DISC/RNG/BV-01", "WA/DISC/RNG/BI-02"],
    ]
}

extension SharedStep {
    /// Every test that has to find the accessory by its service first.
    static let discovery = SharedStep(
        "discovery",
        brokenBy: ["wrong-service-id"],
        because:
            "a publish whose service ID is not the hash of its name matches no subscribe: the accessory is never found"
    )
    /// Every test that finds the accessory with a passive subscribe.
    static let passiveDiscovery = SharedStep(
        "passive discovery",
        after: [.discovery],
        brokenBy: ["no-unsolicited-publish"],
        because: "a passive subscriber finds the accessory only in its unsolicited publishes"
    )
    /// Every test that judges the accessory's answers to an active subscribe.
    static let solicitedReply = SharedStep(
        "solicited reply",
        after: [.discovery],
        brokenBy: ["no-solicited-reply"],
        because: "an accessory that never answers an active subscribe leaves no reply to judge"
    )
}
