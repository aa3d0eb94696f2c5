import AwareCore
import AwareProtocol
import AwareWire

/// The data-path and performance test groups, `WA/NDP/*` and `WA/PERF/*` (issue 5): paired data
/// paths as an iPhone sets them up (nan-wire-reference.md 4), the refusals an accessory owes an
/// unpaired phone, an open request or a mismatched performance mode, schedule counter-proposals,
/// protected data frames, the service's transport port and protocol named in the response, schedule
/// updates on an established NDL, two phones at once; and what the data path delivers: realtime latency
/// within the profile's budget, the bulk throughput floor, no bunching at the discovery-window
/// period (esp-idf #19066), the service class's TID, a report that agrees with the traffic, and
/// files that arrive whole and resume after a drop.
///
/// Every test has a fault of the emulator that makes it fail (``expectedFailures``).
public enum DataPathSuite {
    static let setupTimeout = Interval.seconds(8)
    static let secondPhoneAddress = MACAddress(0x02, 0xB2, 0x00, 0x00, 0x00, 0x03)
    static let strangerAddress = MACAddress(0x02, 0xB3, 0x00, 0x00, 0x00, 0x04)
    /// The NDC ID the phone proposes in WA/NDP/BV-10 (locally administered, individual).
    static let proposedNDCID = MACAddress(0x02, 0x4E, 0x44, 0x43, 0x00, 0x01)

    /// Every data-path test's faults apply only where the profile lets it run: a profile without a
    /// service that takes data paths skips them all.
    static let takesDataPaths = ProfileCondition("the profile has a service that takes data paths") {
        $0?.dataPath != nil
    }

    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        let suite = Builder(target: target, faults: faults)
        return try suite.setup() + suite.frames() + suite.transport() + suite.schedules() + suite.scheduleUpdates()
            + suite.performance()
    }

    public static func expectedFailures(for fault: String, profile: ProfileFacts?) -> Set<String> {
        guard let dataPath = profile?.dataPath else { return [] }
        var expected = expectedFailures[fault] ?? []
        // Tests the profile gates away cannot fail.
        if dataPath.serviceClasses["realtime"] == nil || dataPath.realtimeMaxLatencyMs == nil {
            expected.remove("WA/PERF/BV-01")
        }
        if dataPath.serviceClasses["realtime"] == nil { expected.remove("WA/PERF/BI-01") }
        if dataPath.fileService == nil {
            expected.subtract(["WA/PERF/BV-05", "WA/PERF/BV-06"])
        }
        if dataPath.allowsOpen { expected.remove("WA/NDP/BI-02") }
        return expected
    }

    static let allTests: Set<String> = [
        "WA/NDP/BV-01", "WA/NDP/BV-02", "WA/NDP/BV-03", "WA/NDP/BV-04", "WA/NDP/BV-05", "WA/NDP/BV-06", "WA/NDP/BV-07",
        "WA/NDP/BV-08", "WA/NDP/BV-09", "WA/NDP/BV-10", "WA/NDP/BV-11", "WA/NDP/BV-12", "WA/NDP/BV-13", "WA/NDP/BV-14",
        "WA/NDP/BI-01", "WA/NDP/BI-02",
        "WA/PERF/BV-01",
        "WA/PERF/BV-02", "WA/PERF/BV-03", "WA/PERF/BV-04", "WA/PERF/BV-05", "WA/PERF/BV-06",
        "WA/PERF/BI-01", "WA/PERF/BI-02",
    ]
    /// Every test that pairs first: all but the unpaired phone's.
    static let pairedTests = allTests.subtracting(["WA/NDP/BI-01"])

    /// For each fault, the data-path tests it must make fail. Pairing and discovery faults reach
    /// here too: a data path starts where a pairing ends, and NAFs to a paired phone that are
    /// not protected are dropped (nan-wire-reference.md 3.8).
    public static let expectedFailures: [String: Set<String>] = [
        "wrong-service-id": allTests,
        "sae-wrong-pin": pairedTests,
        "no-frame-protection": pairedTests,
        "ndp-bad-m4-mic": [
            "WA/NDP/BV-01", "WA/NDP/BV-02", "WA/NDP/BV-03", "WA/NDP/BV-04", "WA/NDP/BV-05", "WA/NDP/BV-06",
            "WA/NDP/BV-07", "WA/NDP/BV-08", "WA/NDP/BV-10", "WA/NDP/BV-11", "WA/NDP/BV-12", "WA/NDP/BV-13",
            "WA/NDP/BV-14", "WA/PERF/BV-01",
            "WA/PERF/BV-02", "WA/PERF/BV-03", "WA/PERF/BV-04", "WA/PERF/BV-05", "WA/PERF/BV-06", "WA/PERF/BI-01",
        ],
        "ndp-accept-unpaired": ["WA/NDP/BI-01"],
        "ndp-accept-open": ["WA/NDP/BI-02"],
        // WA/NDP/BV-13 opens a data path per proposal shape, each after the last was terminated.
        "ndp-stale-after-termination": ["WA/NDP/BV-02", "WA/NDP/BV-13", "WA/PERF/BV-06"],
        // WA/NDP/BV-13's channel-36 proposal needs a counter-proposal on the accessory's channel.
        "ndl-no-counter-proposal": ["WA/NDP/BV-03", "WA/NDP/BV-13"],
        "ndp-no-device-capability": ["WA/NDP/BV-06"],
        "ndp-no-element-container": ["WA/NDP/BV-06"],
        "ndl-no-ndc": ["WA/NDP/BV-07", "WA/NDP/BV-10"],
        "ndl-ignore-proposed-ndc": ["WA/NDP/BV-10"],
        "ndp-always-ndpe": ["WA/NDP/BV-08"],
        "ndp-no-transport-info": ["WA/NDP/BV-12"],
        "ndp-wrong-transport-protocol": ["WA/NDP/BV-12"],
        "ndl-fold-long-periods": ["WA/NDP/BV-13"],
        "ndl-first-map-only": ["WA/NDP/BV-13"],
        "ndl-ignore-conditional": ["WA/NDP/BV-13"],
        "ndl-ignore-schedule-request": ["WA/NDP/BV-14"],
        "naf-a3-own-nmi": ["WA/NDP/BV-09", "WA/NDP/BV-11"],
        "ndp-usd-own-slot-clock": ["WA/NDP/BV-11"],
        // An accessory that never joins the phone's cluster writes its own cluster's ID as A3.
        "ignore-beacons": ["WA/NDP/BV-09", "WA/NDP/BV-11"],
        "ndp-plaintext-data": [
            "WA/NDP/BV-04", "WA/NDP/BV-05", "WA/PERF/BV-01", "WA/PERF/BV-02", "WA/PERF/BV-03", "WA/PERF/BV-04",
            "WA/PERF/BV-05", "WA/PERF/BV-06", "WA/PERF/BI-01", "WA/NDP/BV-01", "WA/NDP/BV-02", "WA/NDP/BV-03",
            "WA/NDP/BV-11", "WA/NDP/BV-12", "WA/NDP/BV-13", "WA/NDP/BV-14",
        ],
        "ndp-single-peer": ["WA/NDP/BV-05"],
        "perf-realtime-as-bulk": ["WA/PERF/BV-01", "WA/PERF/BI-01"],
        "perf-throttle": ["WA/PERF/BV-02"],
        "perf-dw-bursts": ["WA/PERF/BV-01", "WA/PERF/BI-01"],
        "perf-ignore-mode-mismatch": ["WA/PERF/BI-02"],
        "perf-report-inflated": ["WA/PERF/BV-03"],
        "perf-wrong-tid": ["WA/PERF/BV-04"],
        "file-corrupt-chunk": ["WA/PERF/BV-05", "WA/PERF/BV-06"],
        "file-no-resume": ["WA/PERF/BV-06"],
    ]
}

extension SharedStep {
    /// Every test that sets up a secured data path with the paired accessory.
    static let securedDataPath = SharedStep(
        "secured data path",
        after: [.pairedExchange],
        brokenBy: ["ndp-bad-m4-mic"],
        because: "the phone rejects a key installment (m4) whose MIC does not verify: no secured data path comes up"
    )
    /// Every test that sends or receives data on the secured data path.
    static let dataTraffic = SharedStep(
        "data traffic",
        after: [.securedDataPath],
        brokenBy: ["ndp-plaintext-data"],
        because: "the phone drops unprotected data frames on a secured data path: nothing the accessory sends arrives"
    )
}
