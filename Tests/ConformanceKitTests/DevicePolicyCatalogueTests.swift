import Testing

@testable import ConformanceKit

/// The data-path, performance and paired-device tests follow the policy the profile declares
/// (issue 18): a test whose premise is not a mode asks for the accessory's default, a test whose
/// premise is a mode needs a variant only where the default is another, and the tests of two
/// phones, of one phone too many and of a full store gate on the device's limits. Each expected
/// reason below is written out by hand from the profile it is given.
@Suite struct DevicePolicyCatalogueTests {
    static let outside = "the accessory on socket:/tmp/air was started outside the runner"

    /// Like Profiles/speaker.json: realtime by default, bulk offered too, no file service.
    static let speaker: ProfileFacts = {
        var profile = Synthetic.profile
        profile.path = "speaker-like.json"
        profile.dataPath = DataPathFacts(
            service: "_audio-sink._udp",
            port: 5004,
            defaultMode: "realtime",
            serviceClasses: ["bulk": "background", "realtime": "interactiveVoice"],
            realtimeMaxLatencyMs: 10,
            benchProtocol: true
        )
        profile.pairedDeviceLimit = PairedDeviceLimit(count: 8)
        return profile
    }()

    /// Like Profiles/drone.json: bulk by default, realtime offered too.
    static let drone: ProfileFacts = {
        var profile = speaker
        profile.path = "drone-like.json"
        profile.dataPath?.defaultMode = "bulk"
        return profile
    }()

    /// An accessory someone else started, without a control socket: nothing but the air.
    static func socket(_ profile: ProfileFacts, factoryReset: TargetAbility? = nil) -> TargetCapabilities {
        TargetCapabilities(
            target: "socket:/tmp/air",
            profile: profile,
            restart: .unavailable(reason: outside),
            reconfigure: .unavailable(reason: outside),
            factoryReset: factoryReset ?? .unavailable(reason: outside),
            eventLog: .unavailable(reason: outside)
        )
    }

    static func embedded(_ profile: ProfileFacts) -> TargetCapabilities {
        TargetCapabilities(target: "embedded", profile: profile)
    }

    /// The catalogue as `list` builds it for `capabilities` (the suites name the profile's
    /// default in their reasons), with each test's applicability there.
    static func applicability(
        _ capabilities: TargetCapabilities,
        groups: [String] = ["WA/NDP", "WA/PERF"]
    ) throws -> [String: Applicability] {
        let target = PairingSuiteCatalogueTests.PaperTarget(capabilities: capabilities)
        var result: [String: Applicability] = [:]
        for test in try ConformanceSuites.tests(target: target) where groups.contains(test.group) {
            result[test.id.description] = test.applicability(on: capabilities)
        }
        return result
    }

    static func notApplicable(_ all: [String: Applicability]) -> [String: String] {
        all.compactMapValues(\.reason)
    }

    @Test func aRealtimeDefaultOnAForeignTargetSkipsOnlyTheBulkPremisesAndNamesTheDefault() throws {
        let all = try Self.applicability(Self.socket(Self.speaker))
        let variant =
            "needs a profile variant (the test needs the bulk mode, the profile's default "
            + "(performance.default) is realtime): \(Self.outside)"
        #expect(
            Self.notApplicable(all) == [
                "WA/NDP/BV-03": variant,
                "WA/PERF/BV-02": variant,
                "WA/NDP/BV-11": "needs to reconfigure the accessory: \(Self.outside)",
                "WA/PERF/BI-03": "needs to reconfigure the accessory: \(Self.outside)",
                "WA/PERF/BV-05": "the profile has no file service",
                "WA/PERF/BV-06": "the profile has no file service",
                "WA/NDP/BI-03": Self.eightAtOnce,
                "WA/NDP/BV-15": Self.noSubscription,
            ]
        )
        // The realtime tests run against the accessory as it is; so do the two-phone and
        // mode-mismatch tests.
        for id in ["WA/PERF/BV-01", "WA/PERF/BI-01", "WA/PERF/BI-02", "WA/NDP/BV-05", "WA/NDP/BV-13"] {
            #expect(all[id] == .applicable, "\(id)")
        }
        // 16 + 1 + 8, then the mode switch (WA/PERF/BV-07), its refusal (BI-03), two
        // connections on one path (BV-08) and the data path the accessory opens (WA/NDP/BV-15).
        #expect(all.count == 16 + 1 + 8 + 3 + 1)
    }

    @Test func aBulkDefaultOnAForeignTargetSkipsTheRealtimePremisesInstead() throws {
        let all = try Self.applicability(Self.socket(Self.drone))
        let variant =
            "needs a profile variant (the test needs the realtime mode, the profile's default "
            + "(performance.default) is bulk): \(Self.outside)"
        #expect(Self.notApplicable(all)["WA/PERF/BV-01"] == variant)
        #expect(Self.notApplicable(all)["WA/PERF/BI-01"] == variant)
        #expect(all["WA/NDP/BV-03"] == .applicable)
        #expect(all["WA/PERF/BV-02"] == .applicable)
        // Without the mode at all (the camera), no variant would do: the profile is the reason.
        var bulkOnly = Self.drone
        bulkOnly.dataPath?.serviceClasses = ["bulk": "bestEffort"]
        let camera = Self.notApplicable(try Self.applicability(Self.socket(bulkOnly)))
        #expect(camera["WA/PERF/BV-01"] == "the profile does not offer the realtime performance mode")
        #expect(camera["WA/PERF/BI-01"] == "the profile does not offer the realtime performance mode")
    }

    @Test func aTargetThatOwnsTheAccessoryRunsEveryModeWhateverTheDefault() throws {
        for profile in [Self.speaker, Self.drone] {
            let skipped = Self.notApplicable(try Self.applicability(Self.embedded(profile)))
            #expect(
                Set(skipped.keys) == ["WA/PERF/BV-05", "WA/PERF/BV-06", "WA/NDP/BI-03", "WA/NDP/BV-15"],
                "\(profile.path)"
            )
            #expect(skipped["WA/NDP/BV-15"] == Self.noSubscription)
            #expect(skipped["WA/NDP/BI-03"] == Self.eightAtOnce)
        }
    }

    /// Why the accessory-initiated data path does not run against a profile that only publishes.
    static let noSubscription =
        "the profile lists no service the accessory subscribes to (subscriptions with datapath true): "
        + "the accessory only publishes"

    /// Why the one-too-many test does not run against an accessory that serves eight phones.
    static let eightAtOnce =
        "the profile serves 8 phones at a time (radio.maxDataPathPeers); the test brings up data paths for at most 2 "
        + "before the one too many"

    /// With realtime the default, the realtime faults reach the tests that take the default; a
    /// test whose premise is bulk keeps its bulk faults.
    @Test func theFaultsOfTheDefaultModeReachTheTestsThatTakeIt() {
        let failures = { (fault: String, profile: ProfileFacts) in
            ConformanceSuites.expectedFailures(for: fault, profile: profile)
        }
        #expect(
            failures("perf-realtime-as-bulk", Self.speaker) == [
                "WA/NDP/BV-01", "WA/NDP/BV-02", "WA/NDP/BV-04", "WA/NDP/BV-05", "WA/NDP/BV-06", "WA/NDP/BV-07",
                "WA/NDP/BV-08", "WA/NDP/BV-10", "WA/NDP/BV-12", "WA/NDP/BV-13", "WA/NDP/BV-14", "WA/PERF/BV-01",
                "WA/PERF/BV-03", "WA/PERF/BV-04", "WA/PERF/BI-01", "WA/PERF/BV-07", "WA/PERF/BI-03", "WA/PERF/BV-08",
            ]
        )
        // On a bulk default, the mode switch (WA/PERF/BV-07) finds no realtime slots to move to.
        #expect(failures("perf-realtime-as-bulk", Self.drone) == ["WA/PERF/BV-01", "WA/PERF/BV-07", "WA/PERF/BI-01"])
        // Echo replies held for the discovery windows all arrive in the end: WA/NDP/BV-04 and
        // BV-14 count them and pass; only the tests that time them fail, and WA/PERF/BV-08, whose
        // streams' datagrams expire while held.
        #expect(failures("perf-dw-bursts", Self.speaker) == ["WA/PERF/BV-01", "WA/PERF/BV-08", "WA/PERF/BI-01"])
        #expect(failures("perf-dw-bursts", Self.drone) == ["WA/PERF/BV-01", "WA/PERF/BI-01"])
        for profile in [Self.speaker, Self.drone] {
            #expect(failures("ndp-usd-own-slot-clock", profile) == ["WA/NDP/BV-11"], "\(profile.path)")
            #expect(failures("ndl-no-counter-proposal", profile).contains("WA/NDP/BV-03"), "\(profile.path)")
        }
    }

    @Test func twoPhonesAtOnceNeedKeysForTwoAndTwoDataPaths() throws {
        var oneKept = Self.drone
        oneKept.pairedDeviceLimit = PairedDeviceLimit(count: 1)
        #expect(
            try Self.applicability(Self.embedded(oneKept))["WA/NDP/BV-05"]
                == .notApplicable(
                    reason: "the profile keeps pairing keys for 1 phone(s) (pairing.maxPairedDevices), the test needs 2"
                )
        )
        var oneServed = Self.drone
        oneServed.maxDataPathPeers = 1
        #expect(
            try Self.applicability(Self.embedded(oneServed))["WA/NDP/BV-05"]
                == .notApplicable(
                    reason: "the profile serves 1 phone(s) at a time (radio.maxDataPathPeers), the test needs 2"
                )
        )
        // Where it is skipped, the fault that serves one phone at a time cannot fail it; the
        // one-too-many test takes that fault over where the accessory serves one or two.
        let singlePeer = { (profile: ProfileFacts) in
            ConformanceSuites.expectedFailures(for: "ndp-single-peer", profile: profile)
        }
        #expect(singlePeer(Self.drone) == ["WA/NDP/BV-05"])
        #expect(singlePeer(oneServed) == ["WA/NDP/BI-03"])
        var twoServed = Self.drone
        twoServed.maxDataPathPeers = 2
        #expect(singlePeer(twoServed) == ["WA/NDP/BV-05", "WA/NDP/BI-03"])
        #expect(singlePeer(oneKept).isEmpty)
    }

    /// WA/NDP/BI-03's gates are decided when the catalogue is built for the profile, so `list`
    /// tells before anything runs.
    @Test func oneTooManyNeedsASmallLimitAndRoomForOneMorePhone() throws {
        #expect(
            try Self.applicability(Self.embedded(Self.drone))["WA/NDP/BI-03"]
                == .notApplicable(
                    reason: "the profile serves 8 phones at a time (radio.maxDataPathPeers); the test brings up data "
                        + "paths for at most 2 before the one too many"
                )
        )
        var twoOfTwo = Self.drone
        twoOfTwo.maxDataPathPeers = 2
        twoOfTwo.pairedDeviceLimit = PairedDeviceLimit(count: 2)
        #expect(
            try Self.applicability(Self.embedded(twoOfTwo))["WA/NDP/BI-03"]
                == .notApplicable(
                    reason: "the profile keeps pairing keys for 2 phone(s) (pairing.maxPairedDevices), the test needs 3"
                )
        )
        var oneOfEight = Self.drone
        oneOfEight.maxDataPathPeers = 1
        #expect(try Self.applicability(Self.embedded(oneOfEight))["WA/NDP/BI-03"] == .applicable)
    }

    @Test func aFullStoreIsFilledWithAVariantOrBetweenFactoryResets() throws {
        let pairing = { (capabilities: TargetCapabilities) throws -> Applicability? in
            try Self.applicability(capabilities, groups: ["WA/PAIR"])["WA/PAIR/BI-17"]
        }
        #expect(
            try pairing(Self.socket(Self.speaker))
                == .notApplicable(reason: "needs to factory-reset the accessory: \(Self.outside)")
        )
        #expect(try pairing(Self.socket(Self.speaker, factoryReset: .available)) == .applicable)
        var large = Self.speaker
        large.pairedDeviceLimit = PairedDeviceLimit(count: 12, whenFull: .replaceOldest)
        #expect(
            try pairing(Self.socket(large, factoryReset: .available))
                == .notApplicable(
                    reason: "needs a profile variant (the profile's paired-device store of 12 is larger than the 8 "
                        + "the test fills without a variant): \(Self.outside)"
                )
        )
        #expect(try pairing(Self.embedded(large)) == .applicable)
        // Both policies are broken by an accessory without a limit.
        #expect(ConformanceSuites.expectedFailures(for: "no-pairing-limit", profile: large) == ["WA/PAIR/BI-17"])
    }
}
