import Foundation
import Testing

/// `aware-conform keys` against the recorded hostap session and the public vectors: the
/// values a developer derives by hand must be the ones on (or behind) the wire.
@Suite struct KeysCommandTests {
    static func transcript() throws -> [String: Any] {
        let url = CommandRunner.repository.appendingPathComponent("Fixtures/hostap-session-A/transcript.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func value(_ object: [String: Any], _ path: String) -> Any? {
        var current: Any? = object
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    static func keys(_ arguments: [String]) async throws -> [String: String] {
        let outcome = try await CommandRunner.run("aware-conform", ["keys"] + arguments + ["--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: String]
        )
    }

    @Test func saePWEOfTheSession() async throws {
        let transcript = try Self.transcript()
        let result = try await Self.keys([
            "sae-pwe", "--group", "19", "--password", "482915", "--addr1", "02:a0:00:00:00:01", "--addr2",
            "02:b0:00:00:00:02",
        ])
        #expect(result["pweX"] == Self.value(transcript, "pairing.sae.PWE.x") as? String)
        #expect(result["pweY"] == Self.value(transcript, "pairing.sae.PWE.y") as? String)
    }

    @Test func saePTOfTheSession() async throws {
        let transcript = try Self.transcript()
        let result = try await Self.keys(["sae-pt", "--password", "482915"])
        #expect(result["ptX"] == Self.value(transcript, "pairing.sae.PT.x") as? String)
        #expect(result["ptY"] == Self.value(transcript, "pairing.sae.PT.y") as? String)
    }

    @Test func saePWEOfAnnexJ10() async throws {
        // IEEE 802.11-2020 J.10 (Fixtures/public-vectors.json sae_h2e_pwe_j10).
        let result = try await Self.keys([
            "sae-pwe", "--password", "mekmitasdigoat", "--ssid", "byteme", "--identifier", "psk4internet", "--addr1",
            "00:09:5b:66:ec:1e", "--addr2", "00:0b:6b:d9:02:46",
        ])
        #expect(result["pweX"] == "c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e")
        #expect(result["pweY"] == "73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0")
    }

    @Test func niraTagOfTheAccessory() async throws {
        let transcript = try Self.transcript()
        let nik = try #require(Self.value(transcript, "parameters.accessory.nik") as? String)
        let nonce = try #require(Self.value(transcript, "parameters.accessory.nira.nonce") as? String)
        let result = try await Self.keys(["nira-tag", "--nik", nik, "--nmi", "02:a0:00:00:00:01", "--nonce", nonce])
        #expect(result["tag"] == Self.value(transcript, "parameters.accessory.nira.tag") as? String)
    }

    @Test func pasnPTKOfTheSessionAndOfAnnexJ12() async throws {
        let transcript = try Self.transcript()
        let session = try await Self.keys([
            "pasn-ptk", "--pmk", try #require(Self.value(transcript, "pairing.pasn.pmk") as? String), "--initiator",
            "02:b0:00:00:00:02", "--responder", "02:a0:00:00:00:01", "--dhss",
            try #require(Self.value(transcript, "pairing.pasn.dhss") as? String),
        ])
        #expect(session["kck"] == Self.value(transcript, "pairing.pasn.kck") as? String)
        #expect(session["tk"] == Self.value(transcript, "pairing.pasn.tk") as? String)
        #expect(session["kdk"] == Self.value(transcript, "pairing.pasn.kdk") as? String)
        // IEEE 802.11-2024 J.12 (public-vectors.json pasn_ptk_j12): AKM PASN, CCMP, SHA-256.
        let annex = try await Self.keys([
            "pasn-ptk", "--akm", "pasn", "--pmk", "def43e5567e01ca6649265f19a290eeff8bd888f6c1d9cc9d10f04bd378f3cad",
            "--initiator", "00:90:4c:01:c1:07", "--responder", "c0:ff:d4:a8:db:c1", "--dhss",
            "f87b208e7ed2b737afdbc2e13eae78da300123d4d84ba8b0eafe90c48cdf1f93",
        ])
        #expect(annex["kck"] == "7bb821ac0aa5909dd654a56065ad7c77eb889cbe2905bbf05abb1eeac88ba306")
        #expect(annex["tk"] == "673eab46b832d5a80cbc0243016e207e")
        #expect(annex["kdk"] == "2d0f0e82c70dd26b79061a4681e8dbb2ea83bea399844bd5894eb320f69d7dd6")
    }

    @Test func nanKeyHierarchyOfTheSession() async throws {
        let transcript = try Self.transcript()
        let result = try await Self.keys([
            "nan-kdf", "--kdk", try #require(Self.value(transcript, "pairing.pasn.kdk") as? String), "--initiator",
            "02:b0:00:00:00:02", "--responder", "02:a0:00:00:00:01", "--csid", "7",
        ])
        #expect(result["nmKEK"] == Self.value(transcript, "pairing.nan_keys.nm_kek") as? String)
        #expect(result["ndPMK"] == Self.value(transcript, "pairing.nan_keys.nd_pmk") as? String)
    }

    @Test func badInputIsAUsageError() async throws {
        let outcome = try await CommandRunner.run(
            "aware-conform",
            ["keys", "nira-tag", "--nik", "00", "--nmi", "x", "--nonce", "00"]
        )
        #expect(outcome.status == 2)
    }
}
