import AwareTestSupport
import Testing

@testable import AwareCrypto

// Management-frame vectors. No published vector states its output: hostap's
// wlantest/test_vectors.c test_vector_ccmp_mgmt() (IEEE Std 802.11-2012 M.9.2 input) only prints
// its result. The expected bytes below were computed with python3's `cryptography` package
// (an implementation independent of this one), /tmp/cryptovec/vectors.py:
//
//   from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM
//   def aad(hdr):  # 802.11-2020 12.5.3.3.3 for a management frame
//       return bytes([hdr[0], (hdr[1] & ~0x38) | 0x40]) + hdr[4:22] + bytes([hdr[22] & 0x0f, 0])
//   def ccmp_hdr(pn, keyid):
//       p = pn.to_bytes(6, 'little')
//       return bytes([p[0], p[1], 0, 0x20 | (keyid << 6), p[2], p[3], p[4], p[5]])
//   def protect(frame, key, cipher, pn, keyid=0):
//       hdr, body, pnbe = frame[:24], frame[24:], pn.to_bytes(6, 'big')
//       if cipher == 'ccmp':  # nonce flags 0x10: Management (12.5.3.3.4)
//           ct = AESCCM(key, tag_length=8).encrypt(bytes([0x10]) + hdr[10:16] + pnbe, body, aad(hdr))
//       else:                 # GCMP nonce = A2 || PN (12.5.5.3.4)
//           ct = AESGCM(key).encrypt(hdr[10:16] + pnbe, body, aad(hdr))
//       out = bytearray(hdr); out[1] |= 0x40
//       return bytes(out) + ccmp_hdr(pn, keyid) + ct
//   k16 = bytes(range(16)); k32 = bytes(range(0x20, 0x40))
//
// The M.9.2 result also equals the one published by an unrelated project (NONOS,
// dot11 CCMP tests, M92_CIPHER), a second independent computation.
@Suite struct ManagementFrameProtectionTests {
    // hostap test_vector_ccmp_mgmt(): unicast Deauthentication, reason 2, PN 1.
    static let m92Key = hex("66ed21042f9f26d7115706e40414cf2e")
    static let m92Plain = hex("c00000000200000001000200000000000200000000006000" + "0200")
    static let m92Protected = hex(
        "c0400000020000000100020000000000020000000000600001000020000000001d07cafd0409bb8bafef"
    )

    static let key16 = hex("000102030405060708090a0b0c0d0e0f")
    static let key32 = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")

    // Follow-up SDF to a paired peer (nan-wire-reference.md 1, 2.4, 3.8): Action, A1 = peer NMI
    // 02:11:22:33:44:55, A2 = own NMI 02:aa:bb:cc:dd:ee, A3 = Cluster ID 50:6f:9a:01:12:34,
    // sequence 0x123; body = category 09 (Protected Dual of Public Action), action 09,
    // 50 6F 9A 13, SDA (03, length 13, Service ID 112233445566, instance 5, requestor 7,
    // Service Control 0x12 = Follow-up + Service Info, info "abc").
    static let sdfBody = hex("0909506f9a13" + "030d00" + "112233445566" + "05" + "07" + "12" + "03616263")
    static let sdfPlain = hex("d0000000" + "021122334455" + "02aabbccddee" + "506f9a011234" + "3012") + sdfBody
    // Same, with Retry, Power Management and More Data set (masked in the AAD) and fragment
    // number 5 (kept in the AAD).
    static let sdfFlaggedPlain =
        hex("d0380000" + "021122334455" + "02aabbccddee" + "506f9a011234" + "3512") + sdfBody

    // protect(frame_a, k16, 'ccmp', 1)
    static let sdfCCMP = hex(
        "d040000002112233445502aabbccddee506f9a01123430120100002000000000"
            + "d3c1ec03ea2fdb7e60afe88fa3c52373b11d31963aad87453925eed4da52"
    )
    // protect(frame_a, k32, 'gcmp', 1)
    static let sdfGCMP = hex(
        "d040000002112233445502aabbccddee506f9a01123430120100002000000000"
            + "b3db4fd90c4c95ae1d9402a0eaae56f60e0704949181ca2f78d39ce5b2906c192770ca9db1fc"
    )
    // protect(frame_c, k16, 'ccmp', 0x010203040506, 1)
    static let sdfFlaggedCCMP = hex(
        "d078000002112233445502aabbccddee506f9a01123435120605006004030201"
            + "458dfc82edb8c0e71a6ac2b5433291591989baf438e8cac815b7d5969717"
    )
    // protect(frame_c, k32, 'gcmp', 0x010203040506, 1)
    static let sdfFlaggedGCMP = hex(
        "d078000002112233445502aabbccddee506f9a01123435120605006004030201"
            + "6c173fd9e3a1c0a62c8bcdae44af65bd71654ae87be008b32feb651725be796570d2c9cf2efe"
    )
    // protect(frame_a[:24], k16, 'ccmp', 2) and protect(frame_a[:24], k32, 'gcmp', 2): empty body.
    static let emptyCCMP = hex("d040000002112233445502aabbccddee506f9a01123430120200002000000000" + "7c8bfc058e912954")
    static let emptyGCMP = hex(
        "d040000002112233445502aabbccddee506f9a01123430120200002000000000" + "4dc64c243b366bf7605da73bb3465e78"
    )

    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let plain: [UInt8]
        let protected: [UInt8]
        let key: [UInt8]
        let cipher: PASNCipher
        let pn: UInt64
        let keyID: UInt8
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "M.9.2 deauth",
            plain: m92Plain,
            protected: m92Protected,
            key: m92Key,
            cipher: .ccmp128,
            pn: 1,
            keyID: 0
        ),
        Vector(
            name: "SDF CCMP-128",
            plain: sdfPlain,
            protected: sdfCCMP,
            key: key16,
            cipher: .ccmp128,
            pn: 1,
            keyID: 0
        ),
        Vector(
            name: "SDF GCMP-256",
            plain: sdfPlain,
            protected: sdfGCMP,
            key: key32,
            cipher: .gcmp256,
            pn: 1,
            keyID: 0
        ),
        Vector(
            name: "flagged SDF CCMP-128",
            plain: sdfFlaggedPlain,
            protected: sdfFlaggedCCMP,
            key: key16,
            cipher: .ccmp128,
            pn: 0x0102_0304_0506,
            keyID: 1
        ),
        Vector(
            name: "flagged SDF GCMP-256",
            plain: sdfFlaggedPlain,
            protected: sdfFlaggedGCMP,
            key: key32,
            cipher: .gcmp256,
            pn: 0x0102_0304_0506,
            keyID: 1
        ),
        Vector(
            name: "empty body CCMP-128",
            plain: Array(sdfPlain.prefix(24)),
            protected: emptyCCMP,
            key: key16,
            cipher: .ccmp128,
            pn: 2,
            keyID: 0
        ),
        Vector(
            name: "empty body GCMP-256",
            plain: Array(sdfPlain.prefix(24)),
            protected: emptyGCMP,
            key: key32,
            cipher: .gcmp256,
            pn: 2,
            keyID: 0
        ),
    ]

    @Test(arguments: vectors) func protectGivesTheExpectedBytes(_ v: Vector) throws {
        let out = try ManagementFrameProtection.protect(
            v.plain,
            key: v.key,
            cipher: v.cipher,
            packetNumber: v.pn,
            keyID: v.keyID
        )
        #expect(hexString(out) == hexString(v.protected))
    }

    @Test(arguments: vectors) func unprotectGivesThePlaintextAndPN(_ v: Vector) throws {
        let out = try ManagementFrameProtection.unprotect(v.protected, key: v.key, cipher: v.cipher)
        #expect(hexString(out.frame) == hexString(v.plain))
        #expect(out.packetNumber == v.pn)
    }

    @Test(arguments: PASNCipher.allCases) func roundTripKeepsHeaderFlagsAndBody(_ cipher: PASNCipher) throws {
        let key = cipher == .ccmp128 ? Self.key16 : Self.key32
        for length in [0, 1, 15, 16, 17, 200] {
            let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            let frame = Array(Self.sdfFlaggedPlain.prefix(24)) + body
            let protected = try ManagementFrameProtection.protect(
                frame,
                key: key,
                cipher: cipher,
                packetNumber: 0xFFFF_FFFF_FFFF,
                keyID: 3
            )
            #expect(protected.count == frame.count + 8 + cipher.frameMICLength)
            let back = try ManagementFrameProtection.unprotect(protected, key: key, cipher: cipher)
            #expect(back.frame == frame)
            #expect(back.packetNumber == 0xFFFF_FFFF_FFFF)
        }
    }

    @Test(arguments: PASNCipher.allCases) func wrongKeyFailsAuthentication(_ cipher: PASNCipher) throws {
        let v = Self.vectors.first { $0.cipher == cipher && $0.name.hasPrefix("SDF") }!
        var key = v.key
        key[0] ^= 0x80
        #expect(throws: FrameProtectionError.authenticationFailed) {
            try ManagementFrameProtection.unprotect(v.protected, key: key, cipher: cipher)
        }
    }

    @Test func keyOfTheOtherCipherIsRefusedByLength() {
        #expect(throws: FrameProtectionError.invalidKeyLength(cipher: .gcmp256, expected: 32, actual: 16)) {
            try ManagementFrameProtection.unprotect(Self.sdfCCMP, key: Self.key16, cipher: .gcmp256)
        }
        #expect(throws: FrameProtectionError.invalidKeyLength(cipher: .ccmp128, expected: 16, actual: 32)) {
            try ManagementFrameProtection.protect(Self.sdfPlain, key: Self.key32, cipher: .ccmp128, packetNumber: 1)
        }
        #expect(throws: FrameProtectionError.invalidKeyLength(cipher: .ccmp128, expected: 16, actual: 0)) {
            try ManagementFrameProtection.protect(Self.sdfPlain, key: [], cipher: .ccmp128, packetNumber: 1)
        }
    }

    @Test func ccmpFrameReadAsGCMPFailsAuthentication() {
        // Same length key for both is impossible, so re-key: a CCMP frame under a 32-octet key.
        #expect(throws: FrameProtectionError.authenticationFailed) {
            try ManagementFrameProtection.unprotect(Self.sdfCCMP, key: Self.key32, cipher: .gcmp256)
        }
    }
}
