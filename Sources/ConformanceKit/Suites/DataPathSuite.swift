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
    static let secondPhoneAddress = phoneAddress(1)
    static let strangerAddress = MACAddress(0x02, 0xB3, 0x00, 0x00, 0x00, 0x04)
    /// The NMI of the test's phone `index` beyond the first (locally administered, individual),
    /// where every test meets a fresh accessory.
    static func phoneAddress(_ index: Int) -> MACAddress {
        MACAddress(0x02, 0xB2, 0x00, 0x00, 0x00, UInt8(truncatingIfNeeded: 2 + index))
    }
    /// The NDC ID the phone proposes in WA/NDP/BV-10 (locally administered, individual).
    static let proposedNDCID = MACAddress(0x02, 0x4E, 0x44, 0x43, 0x00, 0x01)

    /// Every data-path test's faults apply only where the profile lets it run: a profile without a
    /// service that takes data paths skips them all.
    static let takesDataPaths = ProfileCondition("the profile has a service that takes data paths") {
        $0?.dataPath != nil
    }

    /// The most phones WA/NDP/BI-03 brings up data paths for before the one too many: a bound
    /// on its run time (each phone pairs and sets up a data path first).
    static let peerLimitTested = 2

    public static func tests(target: any AccessoryTarget, faults: [String] = []) throws -> [ConformanceTest] {
        let suite = Builder(target: target, faults: faults)
        return try suite.setup() + suite.frames() + suite.transport() + suite.schedules() + suite.scheduleUpdates()
            + suite.performance() + PairingSuite.Builder(target: target, faults: faults).reverseDataPath()
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
    /// Every test that reaches the accessory's IPv6 stack with standard traffic: neighbour
    /// discovery, then echo (``DataPathSuite/Builder/reach(_:_:_:phone:)``).
    static let echoTraffic = SharedStep(
        "echo traffic",
        after: [.dataTraffic],
        brokenBy: ["ipv6-no-neighbor-advertisement", "ipv6-no-echo-reply"],
        because: "the phone resolves the accessory's address before it sends (RFC 4861 7.2) and checks that it "
            + "answers echo: without an advertisement nothing reaches it, without echo replies it is not reachable"
    )
}

extension ProfileCondition {
    /// The profile offers `mode` (`performance.<mode>`): where it does not, the tests of that
    /// mode are skipped and no fault can make them fail.
    static func offers(_ mode: PerformanceMode) -> ProfileCondition {
        ProfileCondition("the profile offers the \(mode.rawValue) mode") {
            $0?.dataPath?.serviceClasses[mode.rawValue] != nil
        }
    }

    /// A test whose premise is `mode` needs a profile variant where the accessory listens in
    /// another mode by default (its listener refuses every other mode, apple-peer-model.md 1.7).
    /// `profile` is the one the catalogue is built for, so `list` names its default.
    static func defaultMode(isNot mode: PerformanceMode, in profile: ProfileFacts?) -> ProfileCondition {
        let named = profile?.dataPath.map { ", the profile's default (performance.default) is \($0.defaultMode)" }
        return ProfileCondition("the test needs the \(mode.rawValue) mode\(named ?? " as the accessory's default")") {
            // A profile without the mode is skipped for that (the test's requirement), not for a variant.
            guard let facts = $0?.dataPath, facts.serviceClasses[mode.rawValue] != nil else { return false }
            return facts.defaultMode != mode.rawValue
        }
    }

    /// The accessory listens in `mode` by default (`performance.default`): the faults of that
    /// mode reach every test that takes the default.
    static func defaultMode(is mode: PerformanceMode) -> ProfileCondition {
        ProfileCondition("the profile's default mode is \(mode.rawValue)") {
            $0?.dataPath?.defaultMode == mode.rawValue
        }
    }

    /// The accessory serves at most ``DataPathSuite/peerLimitTested`` phones at once
    /// (`radio.maxDataPathPeers`): WA/NDP/BI-03 runs only then.
    static let servesFewPhones = ProfileCondition(
        "the profile serves at most \(DataPathSuite.peerLimitTested) phones at once (radio.maxDataPathPeers)"
    ) { ($0?.maxDataPathPeers ?? Int.max) <= DataPathSuite.peerLimitTested }

    /// The data service runs over TCP (`._tcp`): the runner connects to its port.
    static let tcpService = ProfileCondition("the profile's data service runs over TCP (._tcp)") {
        $0?.dataPath?.serviceIsTCP == true
    }

    /// The accessory keeps pairing keys for two phones and serves both at once: WA/NDP/BV-05's premise.
    static let servesTwoPhones = ProfileCondition(
        "the profile keeps pairing keys for and serves two phones at once"
    ) { profile in
        guard let profile else { return false }
        return (profile.pairedDeviceLimit?.count ?? 0) >= 2 && profile.maxDataPathPeers >= 2
    }
}
