import Testing

@testable import ConformanceKit

@Suite struct CatalogueRequirementTests {
    static let bare = ProfileFacts(
        path: "bare.json",
        services: [
            ServiceFacts(name: "_a._udp", instanceID: 1, publishesUnsolicited: false, answersSubscribes: true)
        ]
    )

    @Test func eachRequirementIsMetByTheFactItNames() {
        let full = Synthetic.profile
        let bare = Self.bare
        let cases: [(TestRequirement, full: Bool, bare: Bool, reason: String)] = [
            (.unsolicitedPublish, true, false, "the profile has no service published unsolicited"),
            (.solicitedPublish, true, true, "the profile has no service that answers active subscribes (solicited)"),
            (.matchFilter, true, false, "the profile has no service with a matching filter"),
            (.publishTTL, false, false, "the profile has no service published with a TTL"),
            (.pairing, true, false, "the profile does not offer pairing"),
            (.services(atLeast: 2), false, false, "the profile publishes 1 service, the test needs at least 2"),
            (.services(atLeast: 1), true, true, "the profile publishes 1 service, the test needs at least 1"),
            (
                .txtKey("PAIRINGNAME"), true, false,
                "the profile has no service whose TXT record has the key PAIRINGNAME"
            ),
        ]
        for (requirement, fullMeets, bareMeets, reason) in cases {
            #expect(requirement.isMet(by: full) == fullMeets, "\(requirement)")
            #expect(requirement.isMet(by: bare) == bareMeets, "\(requirement)")
            #expect(requirement.unmetReason(bare) == reason)
        }
        var withTTL = full
        withTTL.services[0].ttlSeconds = 60
        #expect(TestRequirement.publishTTL.isMet(by: withTTL))
    }

    @Test func applicabilityGivesTheFirstUnmetReason() {
        let test = Synthetic.test(
            "WA/DISC/BV-01",
            requires: [.solicitedPublish, .matchFilter, .pairing],
            Synthetic.passes
        )
        #expect(test.applicability(on: Synthetic.capabilities()) == .applicable)
        #expect(
            test.applicability(on: Synthetic.capabilities(profile: Self.bare))
                == .notApplicable(reason: "the profile has no service with a matching filter")
        )
        #expect(
            test.applicability(on: Synthetic.capabilities(profile: nil)) == .notApplicable(reason: "no profile")
        )
    }

    @Test func aSocketTargetSkipsTestsThatRestartOrReconfigure() throws {
        let socket = TargetCapabilities(
            target: "socket:/tmp/air.sock",
            profile: Synthetic.profile,
            restart: .unavailable(reason: "the socket target's accessory was started by someone else"),
            reconfigure: .unavailable(reason: "the socket target's accessory was started by someone else")
        )
        let restart = Synthetic.test("WA/DISC/BV-01", needsRestart: true, Synthetic.passes)
        #expect(
            restart.applicability(on: socket).reason
                == "needs to restart the accessory: the socket target's accessory was started by someone else"
        )
        let reconfigure = try ConformanceTest(id: "WA/DISC/BV-02", title: "t", needsReconfigure: true) { _ in }
        #expect(
            reconfigure.applicability(on: socket).reason
                == "needs to reconfigure the accessory: the socket target's accessory was started by someone else"
        )
        #expect(restart.applicability(on: Synthetic.capabilities()) == .applicable)
    }

    @Test func theListingShowsApplicabilityAndWhyNot() {
        let catalogue = Synthetic.mixedCatalogue()
        let text = CatalogueListingFormatter.render(catalogue.listing(on: Synthetic.capabilities(profile: Self.bare)))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("ID  "))
        #expect(lines[0].contains("APPLIES"))
        #expect(text.contains("WA/DISC/MF/BV-03  WA/DISC  no       Matching filter row 3 matches  [filters]"))
        #expect(text.contains("not applicable: the profile has no service with a matching filter"))
        #expect(text.contains("WA/DISC/SD/BV-01  WA/DISC  yes      Solicited publish answers an active subscribe\n"))
        #expect(text.hasSuffix("6 tests, 3 applicable to the profile\n"))
        let withoutProfile = CatalogueListingFormatter.render(catalogue.listing(on: nil))
        #expect(!withoutProfile.contains("APPLIES"))
        #expect(withoutProfile.hasSuffix("6 tests\n"))
    }
}
