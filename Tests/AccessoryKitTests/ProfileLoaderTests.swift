import Foundation
import Testing

@testable import AccessoryKit

@Suite struct ProfileLoaderTests {
    static func issues(_ json: String) -> [String] {
        do {
            _ = try ProfileLoader.load(bytes: Array(json.utf8))
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    @Test func theIssuesExampleMessageIsExact() {
        let json = """
            {"device": {"vendorName": "Example Inc", "modelName": "Example Model"},
             "services": [{"name": "_drone_service._udp", "publishType": "both"}]}
            """
        #expect(
            Self.issues(json) == [
                "services[0].name: \"_drone_service._udp\" — only letters, digits and hyphens are allowed"
            ]
        )
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let json = """
            {"device": {"modelName": "Example Model", "colour": "red"},
             "services": [{"name": "_a._tcp", "publishType": "loud", "instanceId": 300},
                          {"name": "drone._udp", "publishType": "both"}],
             "pairing": {"pin": {"length": 3}}}
            """
        #expect(
            Self.issues(json) == [
                "device.colour: unknown key; allowed here: vendorName, modelName, pairingName",
                "device.vendorName: is required",
                "device.pairingName: is required when the profile offers pairing (`pairing` is present): "
                    + "the phone's picker shows it",
                "services[0].instanceId: 300 — must be between 1 and 255",
                "services[0].publishType: \"loud\" — must be one of \"unsolicited\", \"solicited\", \"both\"",
                "services[1].name: \"drone._udp\" — must start with an underscore, as in `_name._tcp` or `_name._udp`",
                "pairing.pin.length: 3 — must be between 4 and 8",
            ]
        )
    }

    @Test func malformedJSONGivesLineAndColumn() {
        #expect(throws: ProfileError.malformedJSON(line: 3, column: 14, reason: "expected `:` after the key")) {
            try ProfileLoader.load(bytes: Array("{\n  \"device\": {},\n  \"services\" []\n}".utf8))
        }
        #expect(
            throws: ProfileError.malformedJSON(
                line: 1,
                column: 3,
                reason: "the file is empty; a profile is a JSON object"
            )
        ) {
            try ProfileLoader.load(bytes: Array("  ".utf8))
        }
        // Columns count characters, not octets: "é" is two octets but one column.
        #expect(throws: ProfileError.malformedJSON(line: 2, column: 8, reason: "unterminated string")) {
            try ProfileLoader.load(bytes: Array("{\n  \"é\": \"ab".utf8))
        }
        #expect(throws: ProfileError.malformedJSON(line: 1, column: 13, reason: "a trailing comma is not allowed")) {
            try ProfileLoader.load(bytes: Array("{\"a\": [1, 2,]}".utf8))
        }
        #expect(throws: ProfileError.malformedJSON(line: 1, column: 7, reason: "numbers must not have leading zeros")) {
            try ProfileLoader.load(bytes: Array("{\"a\": 01}".utf8))
        }
    }

    /// The two differences the one JSON path (`JSONValue`) brought: a key given twice is a syntax
    /// error at the second copy, and a number in a message is rendered from its value.
    @Test func duplicateKeysAreSyntaxErrorsAndNumbersShowTheirValue() {
        #expect(
            throws: ProfileError.malformedJSON(
                line: 2,
                column: 15,
                reason: #"the key "vendorName" appears twice in this object"#
            )
        ) {
            try ProfileLoader.load(
                bytes: Array("{\"device\": {\"vendorName\": \"V\",\n              \"vendorName\": \"W\"}}".utf8)
            )
        }
        let json = """
            {"device": {"vendorName": "V", "modelName": "M"},
             "services": [{"name": "_a._tcp", "publishType": "both", "instanceId": 1e3}]}
            """
        #expect(Self.issues(json) == ["services[0].instanceId: 1000.0 — must be between 1 and 255"])
    }

    @Test func deepNestingIsASyntaxErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: ProfileError.malformedJSON(line: 1, column: 257, reason: "nesting is deeper than 256 levels")) {
            try ProfileLoader.load(bytes: Array(deep.utf8))
        }
    }

    @Test func unreadableFilesSayWhy() {
        #expect(throws: ProfileError.unreadable(path: "/nonexistent/p.json", reason: "no such file")) {
            try ProfileLoader.load(path: "/nonexistent/p.json")
        }
        #expect(throws: ProfileError.unreadable(path: "/tmp", reason: "it is a directory, not a profile file")) {
            try ProfileLoader.load(path: "/tmp")
        }
    }

    @Test func wrongTypesNameTheJSONPath() {
        let json = """
            {"device": {"vendorName": 7, "modelName": "M"}, "services": {"name": "_a._tcp"}}
            """
        #expect(
            Self.issues(json) == [
                "device.vendorName: 7 — must be a string",
                "services: {…} — must be a list",
            ]
        )
    }

    @Test func defaultsAreFilledIn() throws {
        let profile = try ProfileLoader.load(
            bytes: Array(
                """
                {"device": {"vendorName": "V", "modelName": "M", "pairingName": "P"},
                 "services": [{"name": "_a._tcp", "publishType": "solicited"},
                              {"name": "_b._tcp", "publishType": "both", "instanceId": 1}],
                 "pairing": {"pin": {"fixed": "1234"}}}
                """.utf8
            )
        )
        #expect(profile.services.map(\.instanceId) == [2, 1])
        #expect(profile.radio.discoveryChannels == [6, 149])
        #expect(
            profile.performance == PerformanceSettings(defaultMode: .bulk, bulk: BulkMode(serviceClass: .bestEffort))
        )
        let pairing = try #require(profile.pairing)
        #expect(pairing.bootstrappingMethods == [.pinDisplay])
        #expect(pairing.bootstrappingBitmap == 0x0002)
        #expect(
            pairing.pin
                == PinPolicy(length: 4, fixed: "1234", maxWrongAttempts: 3, lockoutSeconds: 60, comebackAfterTU: 1024)
        )
        #expect(pairing.cache == PairingCache(npk: true, nik: true, nikLifetimeSeconds: 0))
        #expect(pairing.cipherSuites == [.pasn128])
    }

    @Test func droneProfileMatchesTheIssue() throws {
        let profile = try ProfileLoader.load(
            path: ProfileFixtures.root.appendingPathComponent("Profiles/drone.json").path
        )
        #expect(
            profile.device
                == DeviceIdentity(vendorName: "Example Inc", modelName: "Example Model", pairingName: "My Drone")
        )
        #expect(profile.services.map(\.name) == ["_drone-service._udp"])
        #expect(profile.services[0].publishType == .both)
        #expect(profile.services[0].matchingFilter?.items == [Array("drone".utf8), [], Array("v2".utf8)])
        #expect(profile.pairing?.bootstrappingMethods.contains(.pinDisplay) == true)
        #expect(profile.pairing?.cache.npk == true && profile.pairing?.cache.nik == true)
        #expect(profile.performance.supportedModes == [.bulk, .realtime])
        #expect(profile.app?.telemetry?.service == "_drone-service._udp")
        #expect(profile.pairingTXTEntries.map(\.key) == ["vendorName", "modelName", "pairingName"])
    }

    /// The normalized form (Codable, every default written out) is itself a valid profile that
    /// loads back to the same value.
    @Test(arguments: ProfileFixtures.good)
    func normalizedFormLoadsBackUnchanged(_ url: URL) throws {
        let profile = try ProfileLoader.load(path: url.path)
        let data = try JSONEncoder().encode(profile)
        #expect(try ProfileLoader.load(data: data) == profile)
        #expect(try JSONDecoder().decode(AccessoryProfile.self, from: data) == profile)
    }
}
