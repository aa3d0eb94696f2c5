import Testing

@testable import ConformanceKit

/// Which tests run against an accessory the runner did not start, and why the others do not:
/// every skip names the option that would run it, or the profile fact or variant it needs.
@Suite struct ForeignTargetApplicabilityTests {
    static func socket(
        _ access: OperatorAccess = OperatorAccess(),
        profile: ProfileFacts = Synthetic.profile
    )
        -> SocketTarget
    {
        SocketTarget(path: "/tmp/air", profile: profile, operatorAccess: access)
    }

    static func applicability(_ id: String, on target: any AccessoryTarget) throws -> Applicability {
        let test = try #require(try ConformanceSuites.tests(target: target).first { $0.id.description == id })
        return test.applicability(on: target.capabilities)
    }

    @Test func restartAndResetTestsNameTheOptionsThatRunThem() throws {
        let bare = Self.socket()
        #expect(
            try Self.applicability("WA/RECON/BV-03", on: bare)
                == .notApplicable(
                    reason: "needs to restart the accessory: the accessory on socket:/tmp/air was started outside "
                        + "the runner: give --reboot-command CMD (or --control PATH for accessory-emu), or run at a "
                        + "terminal"
                )
        )
        #expect(
            try Self.applicability("WA/RECON/BI-06", on: bare)
                == .notApplicable(
                    reason: "needs to factory-reset the accessory: the accessory on socket:/tmp/air was started "
                        + "outside the runner: give --reset-command CMD (or --control PATH for accessory-emu), or run "
                        + "at a terminal"
                )
        )
        let reboots = Self.socket(OperatorAccess(reboot: OperatorCommand("true", timeoutSeconds: 1, option: "x")))
        #expect(try Self.applicability("WA/RECON/BV-03", on: reboots) == .applicable)
        #expect(try Self.applicability("WA/RECON/BI-06", on: reboots) != .applicable)
        let controlled = SocketTarget(path: "/tmp/air", profile: Synthetic.profile, controlPath: "/tmp/control")
        #expect(try Self.applicability("WA/RECON/BI-06", on: controlled) == .applicable)
    }

    /// A publish update is not a profile variant: `accessory-emu`'s control socket drives it
    /// (`update-service`), so WA/DISC/UPD/BV-01 runs on a socket target with `--control`; without
    /// it the skip names that option.
    @Test func aPublishUpdateRunsThroughTheControlSocket() throws {
        let controlled = SocketTarget(path: "/tmp/air", profile: Synthetic.profile, controlPath: "/tmp/control")
        #expect(try Self.applicability("WA/DISC/UPD/BV-01", on: controlled) == .applicable)
        #expect(
            try Self.applicability("WA/DISC/UPD/BV-01", on: Self.socket())
                == .notApplicable(
                    reason: "needs the accessory to update its publish: the accessory on socket:/tmp/air was "
                        + "started outside the runner: give --control PATH for accessory-emu (update-service)"
                )
        )
        // A profile variant still needs an accessory the runner starts, control socket or not.
        #expect(try Self.applicability("WA/DISC/PUB/BV-04", on: controlled) != .applicable)
    }

    /// A target whose air carries only NAN USD (a station interface through nl80211) has no
    /// cluster: every data-path test and the synchronization test skip with that reason; discovery
    /// and pairing tests still run.
    @Test func withoutAClusterTheDataPathAndSynchronizationTestsSkip() throws {
        let usd = TargetCapabilities(
            target: "nl80211:wlan1",
            profile: Synthetic.profile,
            cluster: .unavailable(reason: "USD only")
        )
        let tests = try ConformanceSuites.tests(target: Self.socket())
        let skipped = tests.filter {
            $0.applicability(on: usd) == .notApplicable(reason: "needs a NAN cluster: USD only")
        }
        let ids = Set(skipped.map(\.id.description))
        #expect(ids.contains("WA/DISC/SYNC/BV-01"))
        #expect(ids.contains("WA/NDP/BV-01"))
        #expect(ids.contains("WA/PERF/BV-01"))
        #expect(
            skipped.allSatisfy {
                $0.group.hasPrefix("WA/NDP") || $0.group.hasPrefix("WA/PERF")
                    || $0.id.description == "WA/DISC/SYNC/BV-01"
            }
        )
        #expect(tests.first { $0.id.description == "WA/PAIR/BV-01" }?.applicability(on: usd) == .applicable)
        #expect(tests.first { $0.id.description == "WA/DISC/PUB/BV-02" }?.applicability(on: usd) == .applicable)
    }

    /// A phone radio that neither sends nor receives protected frames after pairing (a station
    /// interface through nl80211): the tests that judge the NIK exchange, reconnection or
    /// protection skip with that reason instead of failing or passing on nothing; pairing itself
    /// and the PASN replay test still run.
    @Test func withoutProtectedFramesTheNIKReconnectAndProtectionTestsSkip() throws {
        let station = TargetCapabilities(
            target: "nl80211:wlan1",
            profile: Synthetic.profile,
            protectedFrames: .unavailable(reason: "station")
        )
        let tests = try ConformanceSuites.tests(target: Self.socket())
        let skipped = Set(
            tests.filter {
                $0.applicability(on: station) == .notApplicable(reason: "needs protected frames after pairing: station")
            }.map(\.id.description)
        )
        let expected: Set<String> = [
            "WA/PAIR/BV-11", "WA/PAIR/BI-12", "WA/PAIR/BV-14", "WA/PAIR/BI-15", "WA/PAIR/BI-16", "WA/PAIR/BI-17",
            "WA/RECON/BV-01", "WA/RECON/BV-02", "WA/RECON/BV-03", "WA/RECON/BV-04", "WA/RECON/BV-05",
            "WA/RECON/BI-06", "WA/RECON/BI-07", "WA/RECON/BI-08", "WA/RECON/BV-09", "WA/RECON/BV-10",
            "WA/RECON/BV-11",
            "WA/PAIR/BV-19", "WA/PAIR/BV-20", "WA/PAIR/BV-21", "WA/PAIR/BV-22", "WA/PAIR/BV-23", "WA/PAIR/BV-24",
        ]
        #expect(skipped == expected)
        for id in ["WA/PAIR/BV-01", "WA/PAIR/BI-13", "WA/PAIR/BI-04"] {
            #expect(tests.first { $0.id.description == id }?.applicability(on: station) == .applicable, "\(id)")
        }
    }

    @Test func theFrame3MICTestSaysItNeedsTheEmulatorsEventLog() throws {
        guard case .notApplicable(let reason) = try Self.applicability("WA/RECON/BI-07", on: Self.socket()) else {
            Issue.record("WA/RECON/BI-07 applies on a socket target")
            return
        }
        #expect(reason.hasPrefix("judges from the accessory's event log: socket:/tmp/air"))
        #expect(reason.contains("accessory-emu started by the runner"))
        // The PIN test judges from the air now: it runs on every target.
        #expect(try Self.applicability("WA/PAIR/BV-02", on: Self.socket()) == .applicable)
    }

    @Test func aFixedPINRulesOutTheFreshPINTest() throws {
        var label = Synthetic.profile
        label.pin = PINFacts(length: 8, fixed: "20254718")
        #expect(
            try Self.applicability("WA/PAIR/BV-03", on: Self.socket(profile: label))
                == .notApplicable(
                    reason: "the profile's PIN is fixed (pairing.pin.fixed): every attempt shows the same PIN"
                )
        )
        var screen = Synthetic.profile
        screen.pin = PINFacts(length: 6)
        #expect(try Self.applicability("WA/PAIR/BV-03", on: Self.socket(profile: screen)) == .applicable)
    }

    @Test func theEmbeddedAndSpawnTargetsShowTheEventLog() {
        let capabilities = Synthetic.capabilities()
        #expect(capabilities.eventLog == .available)
        #expect(capabilities.factoryReset == .available)
    }

    /// The truth tables are written for one publisher filter: a profile with another needs a
    /// variant, and `list` says so on a target that cannot make it.
    @Test func theTruthTablesNeedTheirFilterOrAVariant() throws {
        var other = Synthetic.profile
        other.services[0].matchFilter = "cam:hex:0401"
        let reason =
            "needs a profile variant (the truth table needs the matching filter drone:*:v2 on the service): the "
            + "accessory on socket:/tmp/air was started outside the runner"
        #expect(
            try Self.applicability("WA/DISC/MF/BV-01", on: Self.socket(profile: other))
                == .notApplicable(reason: reason)
        )
        #expect(
            try Self.applicability("WA/DISC/MF/BV-02", on: Self.socket(profile: other))
                == .notApplicable(reason: reason)
        )
        #expect(try Self.applicability("WA/DISC/MF/BV-01", on: Self.socket()) == .applicable)
        #expect(try Self.applicability("WA/DISC/MF/BV-01", on: EmbeddedLikeTarget(profile: other)) == .applicable)
    }

    /// A target that owns its accessory: every variant can be made.
    struct EmbeddedLikeTarget: AccessoryTarget {
        var capabilities: TargetCapabilities
        init(profile: ProfileFacts) { capabilities = TargetCapabilities(target: "embedded", profile: profile) }
        var name: String { "embedded" }
        var clock: TestClock { .virtual }
        func openSession(_ request: SessionRequest) throws -> any TargetSession { throw TargetError("paper") }
    }
}
