import AwareTestSupport
import Testing

@testable import AwareCrypto

// Expected values: RFC 3394 4.1 / 4.6 (AES key wrap), RFC 7914 11 (PBKDF2-HMAC-SHA-256), IEEE
// Std 802.11-2024 J.13 (public-vectors.json), and for the generic KDF lengths values computed
// with Python's hmac module (an independent implementation of the 802.11 KDF loop).
@Suite struct KDFTests {
    @Test func kdfSHA256SpansTwoHMACBlocks() throws {
        let out = try IEEE80211KDF.derive(
            hash: .sha256,
            key: Array(0..<32),
            label: "AwareBench test",
            context: [1, 2, 3],
            length: 40
        )
        #expect(out == hex("e96b31b6c9638ee0452efc516358cef48da43ac8b48c284282987335de67328ff7c8d4e9cbd0c63b"))
    }

    @Test func kdfSHA384SpansThreeHMACBlocks() throws {
        let out = try IEEE80211KDF.derive(
            hash: .sha384,
            key: Array(0..<32),
            label: "AwareBench test",
            context: [1, 2, 3],
            length: 100
        )
        #expect(
            out
                == hex(
                    "e0022a2203faa050f44c5e988bffc191145d38b9a6548ee839150431372bac4658d2ef27e00e4746a0cfb0d85cad761b"
                        + "98360e4e3287774e50b818c576b0924e4dd941b0abde5c54f857ee7fc1e7a44659a6e13d4d3f4dcecf5eebfceb219a"
                        + "38a93836d3"
                )
        )
    }

    @Test func kdfRefusesLengthsWhoseBitCountOverflows() {
        #expect(throws: KeyDerivationError.outputLengthOutOfRange(operation: "KDF-sha256", length: 8192)) {
            try IEEE80211KDF.derive(hash: .sha256, key: [1], label: "x", context: [], length: 8192)
        }
        #expect(throws: KeyDerivationError.outputLengthOutOfRange(operation: "KDF-sha384", length: 0)) {
            try IEEE80211KDF.derive(hash: .sha384, key: [1], label: "x", context: [], length: 0)
        }
    }

    @Test func pbkdf2MatchesRFC7914() throws {
        let out = try PBKDF2.derive(
            hash: .sha256,
            password: Array("passwd".utf8),
            salt: Array("salt".utf8),
            iterations: 1,
            length: 64
        )
        #expect(
            out
                == hex(
                    "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
                )
        )
    }

    @Test func aesKeyWrapMatchesRFC3394() throws {
        let kek128 = hex("000102030405060708090A0B0C0D0E0F")
        let key128 = hex("00112233445566778899AABBCCDDEEFF")
        let wrapped128 = hex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5")
        #expect(try AESKeyWrap.wrap(key128, kek: kek128) == wrapped128)
        #expect(try AESKeyWrap.unwrap(wrapped128, kek: kek128) == key128)

        let kek256 = hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")
        let key256 = hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")
        let wrapped256 = hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21")
        #expect(try AESKeyWrap.wrap(key256, kek: kek256) == wrapped256)
        #expect(try AESKeyWrap.unwrap(wrapped256, kek: kek256) == key256)
    }

    @Test func aesKeyUnwrapRefusesTamperedDataAndWrongKey() {
        let kek = hex("000102030405060708090A0B0C0D0E0F")
        var tampered = hex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5")
        tampered[20] ^= 0x01
        #expect(throws: KeyDerivationError.integrityCheckFailed) { try AESKeyWrap.unwrap(tampered, kek: kek) }
        let wrongKEK = hex("000102030405060708090A0B0C0D0E0E")
        #expect(throws: KeyDerivationError.integrityCheckFailed) {
            try AESKeyWrap.unwrap(hex("1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"), kek: wrongKEK)
        }
    }

    @Test func aesKeyWrapRefusesBadLengths() {
        let kek = hex("000102030405060708090A0B0C0D0E0F")
        #expect(throws: KeyDerivationError.tooShort(field: "wrapped key data", minimum: 24, actual: 16)) {
            try AESKeyWrap.unwrap(Array(repeating: 0, count: 16), kek: kek)
        }
        #expect(throws: KeyDerivationError.notAMultiple(field: "wrapped key data", multiple: 8, actual: 25)) {
            try AESKeyWrap.unwrap(Array(repeating: 0, count: 25), kek: kek)
        }
        #expect(throws: KeyDerivationError.notAMultiple(field: "key data", multiple: 8, actual: 17)) {
            try AESKeyWrap.wrap(Array(repeating: 0, count: 17), kek: kek)
        }
        #expect(throws: KeyDerivationError.invalidLength(field: "KEK", expected: 16, actual: 15)) {
            try AESKeyWrap.wrap(Array(repeating: 0, count: 16), kek: Array(repeating: 0, count: 15))
        }
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([0, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func pairwiseKeyExpansionMatchesJ13() throws {
        let vectors = try KDFTestFixtures.publicVectors()
        let keys = try PairwiseKeyExpansion.derive(
            pmk: KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.pmk"),
            authenticatorAddress: KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.aa"),
            supplicantAddress: KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.spa"),
            aNonce: KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.anonce"),
            sNonce: KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.snonce")
        )
        #expect(keys.kck == (try KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.kck")))
        #expect(keys.kek == (try KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.kek")))
        #expect(keys.tk == (try KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.tk")))
        #expect(keys.kdk == (try KDFTestFixtures.bytes(vectors, "kdk_without_pasn_j13.kdk")))
    }
}
