import Foundation
import Testing

@testable import ConformanceKit

/// The pairing and reconnect groups as a catalogue: their IDs, gates and fault expectations,
/// and the profile variants they rely on. Running them is EndToEndTests' job.
@Suite struct PairingSuiteCatalogueTests {
    /// A target that only lends its capabilities; no test here opens a session.
    struct PaperTarget: AccessoryTarget {
        var capabilities: TargetCapabilities
        var name: String { capabilities.target }
        var clock: TestClock { .virtual }
        func openSession(_ request: SessionRequest) throws -> any TargetSession { throw TargetError("paper") }
    }

    static let target = PaperTarget(capabilities: Synthetic.capabilities())

    static var tests: [ConformanceTest] { (try? PairingSuite.tests(target: target)) ?? [] }

    @Test func theGroupsHaveAtLeastTwentyTestsWithUniqueIDsAndAllNeedPairing() throws {
        let tests = Self.tests
        #expect(tests.count >= 20)
        let ids = tests.map(\.id.description)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("WA/PAIR/B") || $0.hasPrefix("WA/RECON/B") })
        #expect(ids.filter { $0.hasPrefix("WA/RECON/") }.count >= 8)
        #expect(tests.allSatisfy { $0.requirements.first == .pairing })
        _ = try TestCatalogue(try ConformanceSuites.tests(target: Self.target))
    }

    @Test func aProfileWithoutPairingSkipsEveryTestWithTheReason() {
        var profile = Synthetic.profile
        profile.offersPairing = false
        let capabilities = Synthetic.capabilities(profile: profile)
        for test in Self.tests {
            #expect(
                test.applicability(on: capabilities) == .notApplicable(reason: "the profile does not offer pairing")
            )
        }
    }

    @Test func restartTestsAreSkippedWhereTheAccessoryCannotRestart() {
        let socket = TargetCapabilities(
            target: "socket:/tmp/air",
            profile: Synthetic.profile,
            restart: .unavailable(reason: "started elsewhere"),
            reconfigure: .unavailable(reason: "started elsewhere")
        )
        let skipped = Set(Self.tests.filter { $0.applicability(on: socket) != .applicable }.map(\.id.description))
        #expect(
            skipped.isSuperset(of: ["WA/RECON/BV-03", "WA/RECON/BV-04", "WA/RECON/BV-05", "WA/RECON/BI-06"])
        )
        #expect(skipped.isSuperset(of: ["WA/PAIR/BI-05", "WA/PAIR/BV-06", "WA/PAIR/BI-17", "WA/RECON/BI-08"]))
        #expect(!skipped.contains("WA/PAIR/BV-01"))
        #expect(!skipped.contains("WA/RECON/BV-01"))
    }

    /// What `fault` must break in these two groups, from the tests' declarations.
    static func pairingFailures(_ fault: String) -> Set<String> {
        ConformanceSuites.expectedFailures(for: fault, profile: Synthetic.profile).filter {
            $0.hasPrefix("WA/PAIR/") || $0.hasPrefix("WA/RECON/")
        }
    }

    @Test func everyTestHasAFaultThatMakesItFail() {
        let ids = Set(Self.tests.map(\.id.description))
        let broken = ConformanceSuites.faults.reduce(Set<String>()) { $0.union(Self.pairingFailures($1)) }
        #expect(broken == ids, "tests no fault fails: \(ids.subtracting(broken).sorted())")
    }

    @Test func everyPairingFaultHasItsOwnTest() {
        let narrow: [String: String] = [
            "log-pin": "WA/PAIR/BV-02", "reuse-pin": "WA/PAIR/BV-03", "accept-any-bootstrap-method": "WA/PAIR/BI-07",
            "accept-wrong-cookie": "WA/PAIR/BI-08", "pasn-without-bootstrap": "WA/PAIR/BI-09",
            "accept-unprotected": "WA/PAIR/BI-12", "no-replay-check": "WA/PAIR/BI-13",
            "no-pairing-limit": "WA/PAIR/BI-17", "fixed-nira-nonce": "WA/RECON/BV-04",
            "keys-survive-reset": "WA/RECON/BI-06", "skip-frame3-mic": "WA/RECON/BI-07",
        ]
        for (fault, id) in narrow {
            #expect(Self.pairingFailures(fault) == [id], "\(fault)")
        }
        for fault in ["sae-wrong-pin", "no-lockout", "ignore-pasn-abort", "nik-without-caching", "no-verification"] {
            #expect(!Self.pairingFailures(fault).isEmpty, "\(fault)")
        }
    }

    @Test func theMergedRegistryUnitesBothGroupsExpectations() {
        #expect(ConformanceSuites.faults.contains("sae-wrong-pin"))
        #expect(ConformanceSuites.faults.contains("no-unsolicited-publish"))
        let merged = ConformanceSuites.expectedFailures(for: "no-pairing-advertisement", profile: Synthetic.profile)
        #expect(merged.contains("WA/DISC/ADV/BV-01"))
        #expect(merged.contains("WA/RECON/BV-02"))
        #expect(ConformanceSuites.expectedFailures(for: "no-such-fault", profile: nil).isEmpty)
    }

    @Test func aVariantSetsNestedKeysOutsideTheServices() throws {
        let document = Data(#"{"services":[{"name":"_a._udp"}],"pairing":{"pin":{"length":6}}}"#.utf8)
        let variant = ProfileVariant([
            .setField(path: ["pairing", "pin", "lockoutSeconds"], json: "3"),
            .setField(path: ["pairing", "cache"], json: #"{"npk":false,"nik":false}"#),
            .setField(path: ["radio", "nmiSeed"], json: "7"),
        ])
        let edited = String(decoding: try variant.apply(to: document), as: UTF8.self)
        #expect(
            edited
                == #"{"pairing":{"cache":{"nik":false,"npk":false},"pin":{"length":6,"lockoutSeconds":3}},"#
                + #""radio":{"nmiSeed":7},"services":[{"name":"_a._udp"}]}"#
        )
        #expect(
            variant.description
                == "pairing.pin.lockoutSeconds = 3; pairing.cache = {\"npk\":false,\"nik\":false}; radio.nmiSeed = 7"
        )
        #expect(throws: ProfileVariantError.badEdit("{")) {
            try ProfileVariant([.setField(path: ["pairing"], json: "{")]).apply(to: document)
        }
        #expect(throws: ProfileVariantError.badEdit("an empty path")) {
            try ProfileVariant([.setField(path: [], json: "1")]).apply(to: document)
        }
    }

    @Test func aWrongPINDiffersFromTheShownOneAndFromItsNeighbour() {
        #expect(PairingSuite.Builder.wrongPIN("123456") == "123451")
        #expect(PairingSuite.Builder.wrongPIN("000009") == "000004")
        #expect(PairingSuite.Builder.wrongPIN("") == "5")
    }
}
