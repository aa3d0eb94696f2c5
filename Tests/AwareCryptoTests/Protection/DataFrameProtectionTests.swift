import AwareTestSupport
import Testing

@testable import AwareCrypto

// Data-frame vectors. The published ones (IEEE Std 802.11-2012 M.6.4 "CCMP test mpdu 1", a
// non-QoS Data frame; IEEE 802.11-12/0051r0 "GCMP test mpdu #2" = P802.11ad M.11.1, a QoS
// Data frame with TID 3 and a 16-octet TK) are run through the data-frame code end to end,
// whole MPDU in, whole MPDU out; their inputs are those of
// PublishedFrameProtectionVectorTests. No published vector covers GCMP-256 or a CCMP QoS
// Data frame with a non-zero TID (the Priority in the nonce), so the NAN golden data frame
// (Tests/AwareWireTests/DataFrameQoSTests.swift: TID 6, UDP "hello" between two NDIs'
// link-local addresses) was protected with python3's `cryptography` package, an
// implementation independent of this one (/tmp/datavec/vectors.py):
//
//   from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM
//   def aad(hdr):  # 802.11-2020 12.5.3.3.3 for a QoS Data frame (no A4, no HT Control)
//       return (bytes([hdr[0] & ~0x70 & 0xff, (hdr[1] & ~0xb8 & 0xff) | 0x40]) + hdr[4:22]
//               + bytes([hdr[22] & 0x0f, 0]) + bytes([hdr[24] & 0x0f, 0]))
//   def ccmp_hdr(pn, keyid):
//       p = pn.to_bytes(6, 'little')
//       return bytes([p[0], p[1], 0, 0x20 | (keyid << 6), p[2], p[3], p[4], p[5]])
//   def protect(frame, key, cipher, pn, keyid=0):
//       hdr, body, pnbe = frame[:26], frame[26:], pn.to_bytes(6, 'big')
//       if cipher == 'ccmp':  # nonce flags = Priority (TID), Management 0 (12.5.3.3.4)
//           ct = AESCCM(key, tag_length=8).encrypt(bytes([hdr[24] & 0x0f]) + hdr[10:16] + pnbe, body, aad(hdr))
//       else:                 # GCMP nonce = A2 || PN (12.5.5.3.4)
//           ct = AESGCM(key).encrypt(hdr[10:16] + pnbe, body, aad(hdr))
//       out = bytearray(hdr); out[1] |= 0x40
//       return bytes(out) + ccmp_hdr(pn, keyid) + ct
//   k16 = bytes(range(16)); k32 = bytes(range(0x20, 0x40))
@Suite struct DataFrameProtectionTests {
    static let key16 = hex("000102030405060708090a0b0c0d0e0f")
    static let key32 = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")

    static let qosHeader = hex("88000000" + "02b000000002" + "02a000000001" + "506f9a011234" + "5000" + "0600")
    static let qosBody = hex(
        "aaaa0300000086dd" + "6b800000000d11ff" + "fe8000000000000000a000fffe000001"
            + "fe8000000000000000b000fffe000002" + "13881b58000d90cd" + "68656c6c6f"
    )
    static let qosPlain = qosHeader + qosBody
    // protect(frame, k16, 'ccmp', 1)
    static let qosCCMP = hex(
        "8840000002b00000000202a000000001506f9a01123450000600" + "0100002000000000"
            + "1b9a603f6a40a4d1a54a383dcc30a08eaad8eb3577f1f2d3f52610002831680406c93f0d481d08c3ea34a526cfbf2e5b"
            + "8539911b7f3380ddc3367fbece13bee2e71eca65be"
    )
    // protect(frame, k32, 'gcmp', 1)
    static let qosGCMP = hex(
        "8840000002b00000000202a000000001506f9a01123450000600" + "0100002000000000"
            + "3ace4d24e9e175d95d7d9f19881efc3ea0d2951b49f4878ef5b065199d51ef6bf3507377a8b94c7aba624794362645dc"
            + "7ecde40b9db269ebd1dccb1dc8e57b40cb993c02daa36da3eb8a3e657a"
    )

    // M.6.4: the annex header has Retry and Protected set (08 48); the plaintext MPDU has
    // Protected clear (08 08).
    static let m64Key = hex("c97c1f67ce371185514a8a19f2bdd52f")
    static let m64PN: UInt64 = 0xB503_9776_E70C
    static let m64Plain = hex(
        "0808c32c0fd2e128a57c5030f1844408abaea5b8fcba8033" + "f8ba1a55d02f85ae967bb62fb6cda8eb7e78a050"
    )
    static let m64Protected = hex(
        "0848c32c0fd2e128a57c5030f1844408abaea5b8fcba8033" + "0ce70020769703b5"
            + "f3d0a2fe9a3dbf2342a643e43246e80c3c04d019" + "7845ce0b16f97623"
    )

    // M.11.1 (GCMP-128): QoS Data, FC 88 48, QoS Control 03 00.
    static let m111Key = hex("c97c1f67ce371185514a8a19f2bdd52f")
    static let m111PN: UInt64 = 0x0089_5F5F_2B08
    static let m111Plain = hex(
        "88080b000fd2e128a57c5030f18444085030f184440880330300"
            + "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627"
    )
    static let m111Protected = hex(
        "88480b000fd2e128a57c5030f18444085030f184440880330300" + "082b00205f5f8900"
            + "60e9700cc4d40ac6d288b201c38f5bf08b807442640a1596e5dbdad41d1f3623f45d7a12db7afb23"
            + "def619c2a374b6df66ffa53b6c69d79e"
    )

    @Test func ccmpProtectsM64EndToEnd() throws {
        let protected = try DataFrameProtection.protect(
            Self.m64Plain,
            key: Self.m64Key,
            cipher: .ccmp128,
            packetNumber: Self.m64PN
        )
        #expect(protected == Self.m64Protected)
        let opened = try DataFrameProtection.unprotect(Self.m64Protected, key: Self.m64Key, cipher: .ccmp128)
        #expect(opened.frame == Self.m64Plain && opened.packetNumber == Self.m64PN)
    }

    @Test func gcmpProtectsM111EndToEnd() throws {
        let protected = try DataFrameProtection.protect(
            Self.m111Plain,
            key: Self.m111Key,
            mode: .gcm,
            packetNumber: Self.m111PN,
            keyID: 0
        )
        #expect(protected == Self.m111Protected)
        let opened = try DataFrameProtection.unprotect(Self.m111Protected, key: Self.m111Key, mode: .gcm)
        #expect(opened.frame == Self.m111Plain && opened.packetNumber == Self.m111PN)
    }

    @Test func nanQoSDataFrameVectors() throws {
        #expect(
            try DataFrameProtection.protect(Self.qosPlain, key: Self.key16, cipher: .ccmp128, packetNumber: 1)
                == Self.qosCCMP
        )
        #expect(
            try DataFrameProtection.protect(Self.qosPlain, key: Self.key32, cipher: .gcmp256, packetNumber: 1)
                == Self.qosGCMP
        )
        for (cipher, protected, key) in [
            (PASNCipher.ccmp128, Self.qosCCMP, Self.key16), (.gcmp256, Self.qosGCMP, Self.key32),
        ] {
            let opened = try DataFrameProtection.unprotect(protected, key: key, cipher: cipher)
            #expect(opened.frame == Self.qosPlain && opened.packetNumber == 1)
            #expect(protected.count == Self.qosPlain.count + 8 + cipher.frameMICLength)
        }
    }

    @Test func aadAndNonceOfAQoSDataFrame() throws {
        // Subtype 9 (QoS Data + CF-Ack: 98), Retry, PwrMgt, MoreData, Order (b8), so HT Control
        // follows QoS Control; SC 0x1237 (fragment 7); QoS Control 0x5af5 (TID 5, EOSP,
        // Block Ack, A-MSDU Present, upper octet 5a).
        let frame = hex(
            "98b8" + "2c00" + "02b000000002" + "02a000000001" + "506f9a011234" + "3712" + "f55a" + "78563412" + "abcd"
        )
        let header = try DataHeader(frame: frame)
        #expect(header.length == 30)
        // FC 98 → 88 (b4–b6 masked), b8 → 40 (flags and Order masked, Protected set); A1 A2 A3;
        // SC 07 00; QC 05 00.
        #expect(
            header.additionalAuthenticatedData
                == hex("8840" + "02b000000002" + "02a000000001" + "506f9a011234" + "0700" + "0500")
        )
        let pn = try ProtectionHeader(packetNumber: 0x0102_0304_0506, keyID: 1)
        #expect(header.ccmpNonce(pn) == hex("05" + "02a000000001" + "010203040506"))
        #expect(header.gcmpNonce(pn) == hex("02a000000001" + "010203040506"))
    }

    @Test(arguments: PASNCipher.allCases) func roundTripKeepsHTControlAndFlags(_ cipher: PASNCipher) throws {
        let key = cipher == .ccmp128 ? Self.key16 : Self.key32
        let frame =
            hex("88b8" + "2c00" + "02b000000002" + "02a000000001" + "506f9a011234" + "3712" + "f55a" + "78563412")
            + Self.qosBody
        let protected = try DataFrameProtection.protect(frame, key: key, cipher: cipher, packetNumber: 7, keyID: 2)
        #expect(protected[1] == 0xF8)
        #expect(Array(protected[0..<30]) == [frame[0], 0xF8] + frame[2..<30])
        #expect(protected[33] == 0xA0)
        let opened = try DataFrameProtection.unprotect(protected, key: key, cipher: cipher)
        #expect(opened.frame == frame && opened.packetNumber == 7)
    }

    /// Bits of the protected golden frame that neither the AAD nor the nonce covers: the
    /// subtype's b4–b6 (octet 0 b4–b6: the QoS bit b7 stays covered, so the header keeps its
    /// layout), FC Retry/PwrMgt/MoreData (octet 1 b3–b5), Duration, the sequence number, QoS
    /// Control bits 4–15, the reserved octet and Key ID / reserved bits of the CCMP/GCMP
    /// header. Order (octet 1 b7) is masked in the AAD too, but setting it makes an HT
    /// Control field of the body's first octets, so the MIC stops matching.
    private static func isUnauthenticated(octet: Int, bit: Int) -> Bool {
        switch octet {
        case 0: return (4...6).contains(bit)
        case 1: return (3...5).contains(bit)
        case 2, 3, 23, 25, 28: return true
        case 22, 24: return bit >= 4
        case 29: return bit != 5
        default: return false
        }
    }

    @Test func everyAuthenticatedBitFlipIsRefused() throws {
        for (cipher, protected, key) in [
            (PASNCipher.ccmp128, Self.qosCCMP, Self.key16), (.gcmp256, Self.qosGCMP, Self.key32),
        ] {
            for octet in protected.indices {
                for bit in 0..<8 {
                    var tampered = protected
                    tampered[octet] ^= UInt8(1) << bit
                    let result = Result { () throws(FrameProtectionError) in
                        try DataFrameProtection.unprotect(tampered, key: key, cipher: cipher)
                    }
                    if Self.isUnauthenticated(octet: octet, bit: bit) {
                        let out = try result.get()
                        #expect(out.frame.dropFirst(26) == Self.qosBody[...], "octet \(octet) bit \(bit)")
                        #expect(out.frame[0] & 0x8C == 0x88 && out.frame[1] & 0xC7 == 0, "octet \(octet) bit \(bit)")
                    } else {
                        #expect(throws: FrameProtectionError.self, "octet \(octet) bit \(bit)") { try result.get() }
                    }
                }
            }
        }
    }

    @Test func theTIDIsBoundByCCMP() throws {
        // Moving the frame to another TID changes both the AAD and the CCMP nonce's Priority.
        var tampered = Self.qosCCMP
        tampered[24] = 0x05
        #expect(throws: FrameProtectionError.authenticationFailed) {
            try DataFrameProtection.unprotect(tampered, key: Self.key16, cipher: .ccmp128)
        }
    }

    @Test func structuralErrors() {
        let management = hex("d0000000" + "02b000000002" + "02a000000001" + "506f9a011234" + "0000" + "0409")
        #expect(throws: FrameProtectionError.notDataFrame(type: 0)) {
            try DataFrameProtection.protect(management, key: Self.key16, cipher: .ccmp128, packetNumber: 1)
        }
        var fourAddress = Self.qosPlain
        fourAddress[1] = 0x03
        #expect(throws: FrameProtectionError.fourAddressFrame) {
            try DataFrameProtection.protect(fourAddress, key: Self.key16, cipher: .ccmp128, packetNumber: 1)
        }
        #expect(throws: FrameProtectionError.frameTooShort(minimum: 26, actual: 25)) {
            try DataFrameProtection.protect(
                Array(Self.qosPlain.prefix(25)),
                key: Self.key16,
                cipher: .ccmp128,
                packetNumber: 1
            )
        }
        #expect(throws: FrameProtectionError.alreadyProtected) {
            try DataFrameProtection.protect(Self.qosCCMP, key: Self.key16, cipher: .ccmp128, packetNumber: 2)
        }
        #expect(throws: FrameProtectionError.notProtected) {
            try DataFrameProtection.unprotect(Self.qosPlain, key: Self.key16, cipher: .ccmp128)
        }
        #expect(throws: FrameProtectionError.frameTooShort(minimum: 26 + 8 + 16, actual: 26 + 8 + 15)) {
            try DataFrameProtection.unprotect(Array(Self.qosGCMP.prefix(49)), key: Self.key32, cipher: .gcmp256)
        }
        #expect(throws: FrameProtectionError.invalidKeyLength(cipher: .gcmp256, expected: 32, actual: 16)) {
            try DataFrameProtection.unprotect(Self.qosGCMP, key: Self.key16, cipher: .gcmp256)
        }
        var clearedExtIV = Self.qosCCMP
        clearedExtIV[29] &= ~0x20
        #expect(throws: FrameProtectionError.extendedIVClear) {
            try DataFrameProtection.unprotect(clearedExtIV, key: Self.key16, cipher: .ccmp128)
        }
        #expect(throws: FrameProtectionError.packetNumberOutOfRange(1 << 48)) {
            try DataFrameProtection.protect(Self.qosPlain, key: Self.key16, cipher: .ccmp128, packetNumber: 1 << 48)
        }
    }
}
