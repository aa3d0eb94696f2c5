import AwareTestSupport
import Foundation
import Testing

@testable import AccessoryKit

/// The device-policy keys (docs/reference/profile-reference.md): `pairing.whenFull` (`refuse`,
/// the default, or `replaceOldest`) and `radio.maxDataPathPeers` (1-8, default 8). Each bad value
/// is refused once, at its own path, with the rule; a profile without the keys loads as before.
@Suite struct DevicePolicyProfileTests {
    static func text(pairing: String = "{}", radio: String? = nil) -> String {
        """
        {"device": {"vendorName": "V", "modelName": "M", "pairingName": "P"},
         \(radio.map { "\"radio\": \($0)," } ?? "")
         "services": [{"name": "_drone-service._udp", "publishType": "both"}], "pairing": \(pairing)}
        """
    }

    static func load(pairing: String = "{}", radio: String? = nil) throws(ProfileError) -> AccessoryProfile {
        try ProfileLoader.load(data: Data(text(pairing: pairing, radio: radio).utf8))
    }

    /// The issues of a profile that must not load.
    static func issues(pairing: String = "{}", radio: String? = nil) -> [ProfileIssue] {
        do {
            _ = try load(pairing: pairing, radio: radio)
            return []
        } catch {
            return error.issues
        }
    }

    // MARK: pairing.whenFull

    @Test func withoutTheKeysTheAccessoryRefusesOneMorePhoneAndServesEightAtOnce() throws {
        let profile = try Self.load()
        #expect(profile.pairing?.whenFull == .refuse)
        #expect(profile.radio.maxDataPathPeers == 8)
        #expect(PairingSettings().whenFull == .refuse)
        #expect(RadioSettings().maxDataPathPeers == 8)
    }

    @Test func bothPoliciesLoad() throws {
        #expect(try Self.load(pairing: #"{"whenFull": "refuse"}"#).pairing?.whenFull == .refuse)
        #expect(try Self.load(pairing: #"{"whenFull": "replaceOldest"}"#).pairing?.whenFull == .replaceOldest)
    }

    @Test(arguments: [
        (#""evict""#, #""evict""#), (#""ReplaceOldest""#, #""ReplaceOldest""#), ("1", "1"), ("true", "true"),
        ("null", "null"), (#"["refuse"]"#, "[…]"),
    ])
    func anyOtherValueIsRefusedAtItsPath(_ value: String, _ shown: String) {
        let issues = Self.issues(pairing: #"{"maxPairedDevices": 2, "whenFull": \#(value)}"#)
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.path == "pairing.whenFull")
        #expect(issues.first?.value == shown)
        #expect(issues.first?.message == #"must be one of "refuse", "replaceOldest""#)
    }

    @Test func aMisspelledKeyIsNamed() {
        let issues = Self.issues(pairing: #"{"whenfull": "refuse"}"#)
        #expect(issues.map(\.path) == ["pairing.whenfull"])
        #expect(issues.first?.message == "unknown key; did you mean `whenFull`?")
    }

    // MARK: radio.maxDataPathPeers

    @Test(arguments: [1, 2, 8])
    func peerLimitsInRangeLoad(_ peers: Int) throws {
        #expect(try Self.load(radio: "{\"maxDataPathPeers\": \(peers)}").radio.maxDataPathPeers == peers)
    }

    @Test func aWholeNumberWrittenWithAFractionLoads() throws {
        #expect(try Self.load(radio: #"{"maxDataPathPeers": 2.0}"#).radio.maxDataPathPeers == 2)
    }

    @Test(arguments: [
        ("0", "must be between 1 and 8"), ("9", "must be between 1 and 8"), ("-1", "must be between 1 and 8"),
    ])
    func peerLimitsOutOfRangeAreRefused(_ value: String, _ message: String) {
        let issues = Self.issues(radio: "{\"maxDataPathPeers\": \(value)}")
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.path == "radio.maxDataPathPeers")
        #expect(issues.first?.value == value)
        #expect(issues.first?.message == message)
    }

    @Test(arguments: [#""2""#, "2.5", "true", "null", "[2]"])
    func peerLimitsThatAreNotWholeNumbersAreRefused(_ value: String) {
        let issues = Self.issues(radio: "{\"maxDataPathPeers\": \(value)}")
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.path == "radio.maxDataPathPeers")
        #expect(issues.first?.message == "must be a whole number")
    }

    /// Problems in both keys are reported together, each at its path.
    @Test func bothBadKeysAreReportedTogether() {
        let issues = Self.issues(pairing: #"{"whenFull": "never"}"#, radio: #"{"maxDataPathPeers": 0}"#)
        #expect(Set(issues.map(\.path)) == ["pairing.whenFull", "radio.maxDataPathPeers"])
    }

    // MARK: The normalized form and the schema

    @Test func theNormalizedFormWritesBothKeysOut() throws {
        let profile = try Self.load(pairing: #"{"whenFull": "replaceOldest"}"#, radio: #"{"maxDataPathPeers": 1}"#)
        let json = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
        #expect(json.contains(#""whenFull":"replaceOldest""#))
        #expect(json.contains(#""maxDataPathPeers":1"#))
        #expect(try ProfileLoader.load(data: Data(json.utf8)) == profile)
    }

    /// Profiles/profile.schema.json judges the same documents as the reader (Python's
    /// `jsonschema`, an independent implementation).
    @Test func theSchemaAgrees() throws {
        guard let python = ExternalTool.pythonWithJSONSchema() else {
            Issue.record("no python3 with the jsonschema module; run ci/setup (installs python3-jsonschema)")
            return
        }
        let cases: [(pairing: String, radio: String?, valid: Bool)] = [
            ("{}", nil, true),
            (#"{"whenFull": "refuse"}"#, nil, true),
            (#"{"whenFull": "replaceOldest", "maxPairedDevices": 1}"#, #"{"maxDataPathPeers": 1}"#, true),
            ("{}", #"{"maxDataPathPeers": 8}"#, true),
            (#"{"whenFull": "evict"}"#, nil, false),
            (#"{"whenFull": 1}"#, nil, false),
            ("{}", #"{"maxDataPathPeers": 0}"#, false),
            ("{}", #"{"maxDataPathPeers": 9}"#, false),
            ("{}", #"{"maxDataPathPeers": "2"}"#, false),
            ("{}", #"{"maxDataPathPeers": 1.5}"#, false),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-policy-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, item) in cases.enumerated() {
            let url = directory.appendingPathComponent("p\(index).json")
            try Data(Self.text(pairing: item.pairing, radio: item.radio).utf8).write(to: url)
            paths.append(url.path)
        }
        let result = try ExternalTool.run(
            python + ["-c", ProfileSchemaAgreementTests.script, ProfileFixtures.schema.path] + paths
        )
        try #require(result.status == 0, "the jsonschema script failed")
        let verdicts = result.output.split(separator: "\n").map { $0.hasPrefix("ACCEPT") }
        try #require(verdicts.count == cases.count)
        for (index, item) in cases.enumerated() {
            let swift = (try? ProfileLoader.load(path: paths[index])) != nil
            #expect(verdicts[index] == item.valid, "schema on case \(index)")
            #expect(swift == item.valid, "reader on case \(index)")
        }
    }
}
