import AwareCore
import AwareProtocol
import AwareWire

/// The discovery test group, `WA/DISC/*`: what a phone needs from an accessory before it can
/// pair — publish and subscribe types, service IDs, matching filters both ways, service
/// response filters, TTL, range limit, the TXT record the phone reads, AccessorySetupKit-style
/// descriptors, several services, publish updates, cluster membership and USD.
///
/// Every test names the emulator faults written to break it (`brokenBy`, and the shared steps it
/// takes), checked by `aware-conform selftest`.
public enum DiscoverySuite {
    /// How long a test makes sure something does not happen (a reply to a filter that must not
    /// match). What should happen gets the phone's own window (``Scenario/discoveryWindow``).
    /// Virtual on the embedded target, real on spawn and socket.
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
