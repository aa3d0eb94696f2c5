import AwareTestSupport
import Testing

@testable import AwareCrypto

// Published vectors. They are data frames, so they check the cipher plumbing (mbedTLS CCM
// M=8 / GCM 16-octet tag, CCMP/GCMP header layout, PN byte order in header and nonce, AAD
// masking of Retry/Protected/sequence number) but not the management-only rules; those are
// checked in ManagementFrameProtectionTests.
@Suite struct PublishedFrameProtectionVectorTests {
    // IEEE Std 802.11-2012 M.6.4 "CCMP test mpdu 1" (from P802.11i/D7.0 I.7.4), as reproduced
    // in FreeBSD sys/net80211 ccmp_test.c: a non-QoS Data frame, FC 08 48, Key ID 0.
    private let ccmpKey = hex("c97c1f67ce371185514a8a19f2bdd52f")
    private let ccmpHeader = hex("0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033")
    private let ccmpPN: UInt64 = 0xB503_9776_E70C
    private let ccmpMutedHeader = hex("08400fd2e128a57c5030f1844408abaea5b8fcba0000")
    private let ccmpHeaderOctets = hex("0ce70020769703b5")
    private let ccmpNonce = hex("005030f1844408b5039776e70c")
    private let ccmpPlaintext = hex("f8ba1a55d02f85ae967bb62fb6cda8eb7e78a050")
    private let ccmpEncrypted = hex("f3d0a2fe9a3dbf2342a643e43246e80c3c04d019")
    private let ccmpMIC = hex("7845ce0b16f97623")

    // IEEE 802.11-12/0051r0 "GCMP test mpdu #2" (adopted as P802.11ad M.11.1; the same input as
    // hostap wlantest/test_vectors.c test_vector_gcmp): QoS Data, TID 3, 16-octet TK.
    private let gcmpKey = hex("c97c1f67ce371185514a8a19f2bdd52f")
    private let gcmpHeader = hex("88480b000fd2e128a57c5030f18444085030f184440880330300")
    private let gcmpPN: UInt64 = 0x0089_5F5F_2B08
    private let gcmpMutedHeader = hex("88400fd2e128a57c5030f18444085030f184440800000300")
    private let gcmpHeaderOctets = hex("082b00205f5f8900")
    private let gcmpNonce = hex("5030f1844408 00895f5f2b08")
    private let gcmpPlaintext = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627")
    private let gcmpEncrypted = hex(
        "60e9700cc4d40ac6d288b201c38f5bf08b807442640a1596e5dbdad41d1f3623f45d7a12db7afb23"
    )
    private let gcmpMIC = hex("def619c2a374b6df66ffa53b6c69d79e")

    @Test func ccmpHeaderLayoutMatchesM64() throws {
        #expect(try ProtectionHeader(packetNumber: ccmpPN, keyID: 0).octets == ccmpHeaderOctets)
        let parsed = try ProtectionHeader(octets: ccmpHeaderOctets[...])
        #expect(parsed.packetNumber == ccmpPN && parsed.keyID == 0 && parsed.extendedIV)
    }

    @Test func aadMaskingMatchesM64MutedHeader() throws {
        // FC 08 48 has Retry set and subtype 0, so the management rule (subtype kept) and the
        // data rule (subtype masked) give the same muted header here.
        let header = try ManagementHeader(anyHeader: ccmpHeader)
        #expect(header.additionalAuthenticatedData == ccmpMutedHeader)
    }

    @Test func ccmpNonceMatchesM64ApartFromTheManagementFlag() throws {
        let header = try ManagementHeader(anyHeader: ccmpHeader)
        let nonce = header.ccmpNonce(try ProtectionHeader(packetNumber: ccmpPN, keyID: 0))
        // The annex frame is Data with priority 0 (flags 00); a management frame sets b4 (0x10).
        #expect(nonce.first == 0x10)
        #expect(Array(nonce.dropFirst()) == Array(ccmpNonce.dropFirst()))
    }

    @Test func ccmEncryptsM64() throws {
        let sealed = try FrameAEAD.seal(
            .ccm,
            key: ccmpKey,
            nonce: ccmpNonce,
            aad: ccmpMutedHeader,
            plaintext: ccmpPlaintext
        )
        #expect(sealed.ciphertext == ccmpEncrypted)
        #expect(sealed.tag == ccmpMIC)
    }

    @Test func ccmDecryptsM64() throws {
        let plain = try FrameAEAD.open(
            .ccm,
            key: ccmpKey,
            nonce: ccmpNonce,
            aad: ccmpMutedHeader,
            ciphertext: ccmpEncrypted,
            tag: ccmpMIC
        )
        #expect(plain == ccmpPlaintext)
    }

    @Test func gcmpHeaderAndNonceMatchM111() throws {
        #expect(try ProtectionHeader(packetNumber: gcmpPN, keyID: 0).octets == gcmpHeaderOctets)
        let header = try ManagementHeader(anyHeader: Array(gcmpHeader.prefix(24)))
        #expect(header.gcmpNonce(try ProtectionHeader(packetNumber: gcmpPN, keyID: 0)) == gcmpNonce)
        // The annex AAD adds the masked QoS Control (03 00) that management frames do not have.
        #expect(header.additionalAuthenticatedData == Array(gcmpMutedHeader.prefix(22)))
    }

    @Test func gcmEncryptsM111() throws {
        let sealed = try FrameAEAD.seal(
            .gcm,
            key: gcmpKey,
            nonce: gcmpNonce,
            aad: gcmpMutedHeader,
            plaintext: gcmpPlaintext
        )
        #expect(sealed.ciphertext == gcmpEncrypted)
        #expect(sealed.tag == gcmpMIC)
    }

    @Test func gcmDecryptsM111AndRefusesAFlippedTag() throws {
        let plain = try FrameAEAD.open(
            .gcm,
            key: gcmpKey,
            nonce: gcmpNonce,
            aad: gcmpMutedHeader,
            ciphertext: gcmpEncrypted,
            tag: gcmpMIC
        )
        #expect(plain == gcmpPlaintext)
        var tag = gcmpMIC
        tag[15] ^= 0x01
        #expect(throws: FrameProtectionError.authenticationFailed) {
            try FrameAEAD.open(
                .gcm,
                key: gcmpKey,
                nonce: gcmpNonce,
                aad: gcmpMutedHeader,
                ciphertext: gcmpEncrypted,
                tag: tag
            )
        }
    }
}
