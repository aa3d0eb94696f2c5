import AwareTestSupport
import Testing

@testable import AwareCrypto

@Suite struct SAEHashToElementTests {
    // IEEE 802.11-2020 Annex J.10 H2E vector (nan-wire-reference.md 8.2; Fixtures/public-vectors.json
    // "sae_h2e_pwe_j10").
    @Test func annexJ10PasswordElement() throws {
        let element = try SAEPasswordElement.derive(
            group: .p256,
            password: Array("mekmitasdigoat".utf8),
            ssid: Array("byteme".utf8),
            identifier: Array("psk4internet".utf8)
        )
        let pwe = try SAE.pwe(
            pt: element.pt,
            group: .p256,
            address1: hex("00095b66ec1e"),
            address2: hex("000b6bd90246")
        )
        #expect(
            hexString(pwe)
                == "c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e"
                + "73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0"
        )
    }

    @Test func sessionAPasswordElementFromPIN() throws {
        let transcript = try SAETranscript()
        let element = try SAEPasswordElement.derive(
            group: .p256,
            password: Array("482915".utf8),
            ssid: SAEPasswordElement.nanPairingSSID
        )
        #expect(element.pwdSeed == (try transcript.bytes("h2e.pwd_seed")))
        #expect(element.pwdValue1 == (try transcript.bytes("h2e.pwd_value_u1")))
        #expect(element.pwdValue2 == (try transcript.bytes("h2e.pwd_value_u2")))
        #expect(element.u1 == (try transcript.bytes("h2e.u1")))
        #expect(element.u2 == (try transcript.bytes("h2e.u2")))
        #expect(element.p1 == (try transcript.point("h2e.P1")))
        #expect(element.p2 == (try transcript.point("h2e.P2")))
        #expect(element.pt == (try transcript.point("PT")))
    }

    @Test func sessionAPasswordElementForTheNMIs() throws {
        let transcript = try SAETranscript()
        let phone = hex("02b000000002")
        let accessory = hex("02a000000001")
        let pt = try transcript.point("PT")
        #expect(
            try SAE.pweScalar(group: .p256, address1: phone, address2: accessory)
                == transcript.bytes("pwe_val_reduced")
        )
        let fromPhone = try SAE.pwe(pt: pt, group: .p256, address1: phone, address2: accessory)
        let fromAccessory = try SAE.pwe(pt: pt, group: .p256, address1: accessory, address2: phone)
        #expect(fromPhone == (try transcript.point("PWE")))
        #expect(fromAccessory == fromPhone)
    }

    @Test func theNANSSIDIsTheASCIIText() {
        #expect(SAEPasswordElement.nanPairingSSID == hex("35 31 36 46 39 41 30 31 30 30 30 30"))
    }

    @Test func aPTOffTheCurveIsRefused() throws {
        var pt = try SAEPasswordElement.derive(group: .p256, password: Array("482915".utf8), ssid: [0x41]).pt
        pt[63] ^= 1
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) {
            try SAE.pwe(pt: pt, group: .p256, address1: hex("02b000000002"), address2: hex("02a000000001"))
        }
    }

    @Test func anAddressThatIsNotSixOctetsIsRefused() throws {
        let pt = try SAEPasswordElement.derive(group: .p256, password: Array("482915".utf8), ssid: [0x41]).pt
        #expect(throws: CryptoError.invalidLength(field: "MAC address", expected: 6, actual: 5)) {
            try SAE.pwe(pt: pt, group: .p256, address1: hex("02b0000000"), address2: hex("02a000000001"))
        }
    }

    // The 802.11 KDF on its own: SHA-256, 384 bits (two HMAC blocks, truncated), computed with
    // Python's hmac module: h(i) = hmac.new(b"key", bytes([i, 0]) + b"label" + b"context" +
    // b"\x80\x01", sha256).hexdigest(); (h(1) + h(2))[:96].
    @Test func keyDerivationFunctionLayout() throws {
        let output = try IEEE80211KDF.derive(
            hash: .sha256,
            key: Array("key".utf8),
            label: "label",
            context: Array("context".utf8),
            length: 48
        )
        #expect(hexString(output) == Self.kdfSHA256Key)
    }

    static let kdfSHA256Key =
        "ad70f82068962a805fa9656eedec3f8a0781bece89bb573d138d8fb5c9fa0465"
        + "8147921124562a5036168bff31d836a4"

    @Test func constantTimeEqualsComparesEveryOctet() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([0, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
    }
}
