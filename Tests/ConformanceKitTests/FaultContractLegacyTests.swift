import Testing

@testable import ConformanceKit

/// The declared fault contracts against the three `expectedFailures` tables they replace: the same
/// faults, and for every fault the same tests, for every combination of the profile facts the tables'
/// adjustments read. Deleted with the tables (the fixtures in Fixtures/selftest keep the record).
@Suite struct FaultContractLegacyTests {
    static func legacy(_ fault: String, _ profile: ProfileFacts?) -> Set<String> {
        DiscoverySuite.expectedFailures(for: fault, profile: profile)
            .union(PairingSuite.expectedFailures(for: fault, profile: profile))
            .union(DataPathSuite.expectedFailures(for: fault, profile: profile))
    }

    static var legacyFaults: [String] {
        Set(DiscoverySuite.expectedFailures.keys).union(PairingSuite.expectedFailures.keys)
            .union(DataPathSuite.expectedFailures.keys).sorted()
    }

    /// Every combination of: a second service that only answers subscribes (or none, or one published
    /// both ways), a data path or none, realtime offered, a latency budget, a file service, open allowed.
    static var profiles: [ProfileFacts?] {
        var profiles: [ProfileFacts?] = [nil]
        let first = ServiceFacts(name: "_a._udp", instanceID: 1, publishesUnsolicited: true, answersSubscribes: true)
        let seconds: [[ServiceFacts]] = [
            [],
            [ServiceFacts(name: "_b._udp", instanceID: 2, publishesUnsolicited: false, answersSubscribes: true)],
            [ServiceFacts(name: "_b._udp", instanceID: 2, publishesUnsolicited: true, answersSubscribes: true)],
        ]
        var dataPaths: [DataPathFacts?] = [nil]
        for bits in 0..<16 {
            dataPaths.append(
                DataPathFacts(
                    service: "_a._udp",
                    port: 7000,
                    defaultMode: "bulk",
                    serviceClasses: bits & 1 != 0 ? ["bulk": "BE", "realtime": "VI"] : ["bulk": "BE"],
                    realtimeMaxLatencyMs: bits & 2 != 0 ? 20 : nil,
                    allowsOpen: bits & 4 != 0,
                    fileService: bits & 8 != 0 ? .init(service: "_f._tcp", port: 7001, files: []) : nil
                )
            )
        }
        for second in seconds {
            for dataPath in dataPaths {
                profiles.append(
                    ProfileFacts(path: "x.json", services: [first] + second, offersPairing: true, dataPath: dataPath)
                )
            }
        }
        return profiles
    }

    @Test func theDeclarationsNameTheTablesFaults() {
        #expect(ConformanceSuites.faults == Self.legacyFaults)
    }

    @Test func theDeclarationsGiveTheTablesSetsForEveryFaultAndProfile() {
        let profiles = Self.profiles
        #expect(profiles.count == 1 + 3 * 17)
        for profile in profiles {
            for fault in Self.legacyFaults + ["no-such-fault"] {
                let declared = ConformanceSuites.expectedFailures(for: fault, profile: profile)
                let tabled = Self.legacy(fault, profile)
                let only = (declared.subtracting(tabled).sorted(), tabled.subtracting(declared).sorted())
                #expect(
                    declared == tabled,
                    "\(fault), \(String(describing: profile)): only declared \(only.0), only tabled \(only.1)"
                )
            }
        }
    }
}
