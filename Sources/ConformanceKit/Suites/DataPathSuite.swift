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
/// Every test names the emulator faults written to break it (`brokenBy`, and the shared steps it
/// takes), checked by `aware-conform selftest`.
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
