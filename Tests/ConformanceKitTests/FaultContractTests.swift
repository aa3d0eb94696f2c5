import Testing

@testable import ConformanceKit

/// The fault-to-test contract as the tests declare it: every test names the faults written to break
/// it, collateral faults come from shared steps declared once, the profile decides what applies, and the
/// matrix `selftest` checks is computed from all of that. The matrices of the shipped profiles are
/// compared with Fixtures/selftest by EndToEndTests' CatalogueContractTests (they need the profiles loaded
/// the way aware-conform loads them).
@Suite struct FaultContractTests {
    static let catalogue = ConformanceSuites.declarations

    /// A profile every test applies to: two services (the second answers subscribes only), pairing, a
    /// data path with both modes, a latency budget and a file service, open data paths refused, keys
    /// kept for eight phones and data paths for two at once (so that one more is refused).
    static let everything: ProfileFacts = {
        var profile = Synthetic.profile
        profile.services.append(
            ServiceFacts(name: "_cam._tcp", instanceID: 2, publishesUnsolicited: false, answersSubscribes: true)
        )
        profile.dataPath = DataPathFacts(
            service: "_drone-service._udp",
            port: 7000,
            defaultMode: "bulk",
            serviceClasses: ["bulk": "BE", "realtime": "VI"],
            realtimeMaxLatencyMs: 20,
            fileService: .init(service: "_file._tcp", port: 7001, files: [.init(name: "a.bin", size: 1)]),
            benchProtocol: true
        )
        profile.pairedDeviceLimit = PairedDeviceLimit(count: 8)
        profile.maxDataPathPeers = 2
        return profile
    }()

    static func failures(_ fault: String, _ profile: ProfileFacts?) -> Set<String> {
        ConformanceSuites.expectedFailures(for: fault, profile: profile)
    }

    @Test func everyTestNamesTheFaultWrittenToBreakItAndSomeFaultBreaksIt() {
        for test in Self.catalogue.tests {
            #expect(!test.faultContract.brokenBy.isEmpty, "\(test.id) names no fault")
            #expect(!test.faultContract.faults(for: Self.everything).isEmpty, "\(test.id): no fault breaks it")
        }
        #expect(Self.catalogue.tests.count >= 83)
    }

    @Test func theFaultListIsEveryFaultSomeContractNames() {
        let named = Set(Self.catalogue.tests.flatMap { $0.faultContract.everyFault.map(\.rawValue) })
        #expect(ConformanceSuites.faults == named.sorted())
        #expect(ConformanceSuites.faults.count >= 68)
        #expect(Self.failures("no-such-fault", Self.everything).isEmpty)
    }

    @Test func aStepBringsItsFaultsAndThoseOfTheStepsBeforeIt() {
        #expect(SharedStep.discovery.faults == ["wrong-service-id"])
        #expect(SharedStep.pairing.faults == ["wrong-service-id", "sae-wrong-pin"])
        #expect(
            SharedStep.dataTraffic.chain.map(\.name)
                == ["discovery", "pairing", "paired exchange", "secured data path", "data traffic"]
        )
        #expect(
            SharedStep.dataTraffic.faults
                == ["wrong-service-id", "sae-wrong-pin", "no-frame-protection", "ndp-bad-m4-mic", "ndp-plaintext-data"]
        )
        let contract = FaultContract(brokenBy: ["reuse-pin"], steps: [.pairing, .retriedPairing])
        #expect(contract.stepChain.map(\.name) == ["discovery", "pairing", "retried pairing"])
        #expect(contract.faults(for: nil) == ["reuse-pin", "wrong-service-id", "sae-wrong-pin", "ignore-pasn-abort"])
    }

    /// The faults that break whole groups are declared on their steps, not test by test: each is named
    /// directly only by the test or two aimed at it.
    @Test func collateralFaultsAreDeclaredOnceOnTheirStep() {
        let collateral: [FaultName] = [
            "wrong-service-id", "sae-wrong-pin", "no-frame-protection", "ndp-bad-m4-mic", "ndp-plaintext-data",
            "stale-nira-tag", "no-pairing-advertisement", "ignore-pasn-abort",
        ]
        for fault in collateral {
            let naming = Self.catalogue.tests.filter { $0.faultContract.brokenBy.contains(fault) }
            let broken = Self.failures(fault.rawValue, Self.everything)
            #expect(naming.count <= 2, "\(fault) is named by \(naming.map(\.id.description))")
            #expect(broken.count >= 5, "\(fault) breaks \(broken.count) tests")
        }
        // The phone-behaviour tests (docs/phones.md) pair too: WA/PAIR/BV-19 to BV-26 and
        // WA/RECON/BV-10 and BV-11; all but BV-25 and BV-26 talk to the accessory after pairing.
        // WA/DISC/PUB/BV-07 (a stated publish period) finds the accessory without pairing; the
        // mode switch (WA/PERF/BV-07, BI-03) and two connections on one path (WA/PERF/BV-08)
        // pair and open a data path.
        #expect(Self.failures("wrong-service-id", Self.everything).count == 76 + 10 + 1 + 3)
        #expect(Self.failures("sae-wrong-pin", Self.everything).count == 21 + 24 + 10 + 3)
        // The reverse role's pairing, reconnect and data path (WA/PAIR/BV-27, WA/RECON/BV-12,
        // WA/NDP/BV-15) exchange NIKs after pairing too, with the accessory as the initiator.
        #expect(Self.failures("no-frame-protection", Self.everything).count == 14 + 24 + 8 + 3 + 3)
    }

    @Test func aServiceFoundOnlyThroughRepliesAddsTheReplyFaultsToTheSeveralServicesTest() {
        var oneService = Self.everything
        oneService.services.removeLast()
        for fault in ["no-solicited-reply", "answer-any-service"] {
            #expect(Self.failures(fault, Self.everything).contains("WA/DISC/MULTI/BV-01"), "\(fault)")
            #expect(!Self.failures(fault, oneService).contains("WA/DISC/MULTI/BV-01"), "\(fault)")
            #expect(!Self.failures(fault, nil).contains("WA/DISC/MULTI/BV-01"), "\(fault)")
        }
        var bothWays = oneService
        bothWays.services.append(
            ServiceFacts(name: "_b._udp", instanceID: 3, publishesUnsolicited: true, answersSubscribes: true)
        )
        #expect(!Self.failures("no-solicited-reply", bothWays).contains("WA/DISC/MULTI/BV-01"))
    }

    @Test func dataPathTestsFailOnlyWhereTheProfileLetsThemRun() {
        let dataPathIDs = { (ids: Set<String>) in ids.filter { $0.hasPrefix("WA/NDP/") || $0.hasPrefix("WA/PERF/") } }
        // 25, then the mode switch (WA/PERF/BV-07), its refusal (BI-03) and two connections (BV-08).
        #expect(dataPathIDs(Self.failures("wrong-service-id", Self.everything)).count == 25 + 3)
        #expect(dataPathIDs(Self.failures("wrong-service-id", nil)).isEmpty)
        var noDataPath = Self.everything
        noDataPath.dataPath = nil
        #expect(dataPathIDs(Self.failures("sae-wrong-pin", noDataPath)).isEmpty)
        #expect(Self.failures("sae-wrong-pin", noDataPath).contains("WA/PAIR/BV-01"))

        var open = Self.everything
        open.dataPath?.allowsOpen = true
        #expect(Self.failures("ndp-accept-open", Self.everything) == ["WA/NDP/BI-02"])
        #expect(Self.failures("ndp-accept-open", open).isEmpty)

        var noBudget = Self.everything
        noBudget.dataPath?.realtimeMaxLatencyMs = nil
        #expect(Self.failures("perf-dw-bursts", Self.everything) == ["WA/PERF/BV-01", "WA/PERF/BI-01"])
        #expect(Self.failures("perf-dw-bursts", noBudget) == ["WA/PERF/BI-01"])
        var bulkOnly = Self.everything
        bulkOnly.dataPath?.serviceClasses = ["bulk": "BE"]
        #expect(Self.failures("perf-dw-bursts", bulkOnly).isEmpty)

        var noFiles = Self.everything
        noFiles.dataPath?.fileService = nil
        #expect(Self.failures("file-corrupt-chunk", Self.everything) == ["WA/PERF/BV-05", "WA/PERF/BV-06"])
        #expect(Self.failures("file-corrupt-chunk", noFiles).isEmpty)
        #expect(!Self.failures("ndp-plaintext-data", noFiles).contains("WA/PERF/BV-06"))
    }

    @Test func theMatrixRoundTripsThroughItsFileAndSaysWhatChanged() throws {
        let matrix = FaultMatrix(profile: Self.everything)
        #expect(matrix.profile == "drone.json")
        #expect(matrix.failures.count == ConformanceSuites.faults.count)
        let text = matrix.json
        #expect(text.contains("\n    \"wrong-service-id\": [\n      \"WA/DISC/ADV/BV-01\",\n"), "one test ID a line")
        let read = try FaultMatrix(parsing: Array(text.utf8))
        #expect(read == matrix)
        #expect(matrix.differences(from: read).isEmpty)

        var changed = read
        changed.failures["log-pin"] = ["WA/PAIR/BV-02", "WA/PAIR/BV-01"]
        changed.failures["perf-wrong-tid"] = []
        changed.failures.removeValue(forKey: "reuse-pin")
        changed.failures["retired-fault"] = ["WA/PAIR/BV-01"]
        #expect(
            matrix.differences(from: changed) == [
                "log-pin: no longer WA/PAIR/BV-01",
                "perf-wrong-tid: now also WA/PERF/BV-04, WA/PERF/BV-08",
                "retired-fault: recorded, but no test declares it any more",
                "reuse-pin: declared, but not recorded",
            ]
        )
        #expect(throws: FaultMatrixError.self) { try FaultMatrix(parsing: Array("{\"faults\": [1]}".utf8)) }
        #expect(throws: FaultMatrixError.self) { try FaultMatrix(parsing: Array("{".utf8)) }
    }

    @Test func theMarkdownTableHasARowPerTestAndTheStepsBelow() {
        let text = CatalogueMarkdown.render(Self.catalogue)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| WA/") }
        #expect(rows.count == Self.catalogue.tests.count)
        #expect(text.hasPrefix("| ID | Title | Group | Tags | Broken by | Steps | Only if |\n"))
        #expect(
            rows.contains(
                "| WA/PAIR/BV-11 | After pairing, the accessory's unicast frames to the phone are protected "
                    + "(category 9) | WA/PAIR | pairing, protection | `no-frame-protection` | paired exchange |  |"
            )
        )
        #expect(
            rows.contains {
                $0.hasPrefix("| WA/PERF/BV-05 |")
                    && $0.hasSuffix(
                        " | `file-corrupt-chunk`; `perf-realtime-as-bulk` when the profile's default mode is realtime "
                            + "| echo traffic | "
                            + "the profile has a service that takes data paths; the profile has a file service; the "
                            + "profile declares the bench's application protocol (app.benchProtocol) |"
                    )
            }
        )
        #expect(rows.contains { $0.contains("`first-service-only`; `no-solicited-reply`, `answer-any-service` when ") })
        #expect(text.contains("\n| Step | After | Broken by | Why |\n"))
        #expect(text.contains("\n| secured data path | paired exchange | `ndp-bad-m4-mic` | "))
        #expect(
            text.contains("\n\(Self.catalogue.tests.count) tests; \(ConformanceSuites.faults.count) accessory faults.")
        )
    }
}
