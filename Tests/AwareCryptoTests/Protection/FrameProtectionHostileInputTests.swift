import AwareTestSupport
import Testing

@testable import AwareCrypto

@Suite struct FrameProtectionHostileInputTests {
    private typealias V = ManagementFrameProtectionTests

    private static let cases: [(PASNCipher, [UInt8], [UInt8])] = [
        (.ccmp128, V.sdfCCMP, V.key16),
        (.gcmp256, V.sdfGCMP, V.key32),
    ]

    /// Bits of a protected management MPDU that neither the AAD nor the nonce covers
    /// (IEEE 802.11-2020 12.5.3.3.3): Retry/PwrMgt/MoreData (FC b11–b13), Duration, the
    /// sequence number, the reserved octet and the Key ID / reserved bits of the CCMP header.
    /// Flipping one of them must still decrypt to the same frame body.
    private static func isUnauthenticated(octet: Int, bit: Int) -> Bool {
        switch octet {
        case 1: return (3...5).contains(bit)
        case 2, 3, 23, 26: return true
        case 22: return bit >= 4
        case 27: return bit != 5
        default: return false
        }
    }

    @Test func everyAuthenticatedBitFlipIsRefused() throws {
        for (cipher, protected, key) in Self.cases {
            let original = try ManagementFrameProtection.unprotect(protected, key: key, cipher: cipher)
            for octet in protected.indices {
                for bit in 0..<8 {
                    var tampered = protected
                    tampered[octet] ^= UInt8(1) << bit
                    let result = Result { () throws(FrameProtectionError) in
                        try ManagementFrameProtection.unprotect(tampered, key: key, cipher: cipher)
                    }
                    if Self.isUnauthenticated(octet: octet, bit: bit) {
                        let out = try result.get()
                        #expect(out.frame.dropFirst(24) == original.frame.dropFirst(24), "octet \(octet) bit \(bit)")
                    } else {
                        #expect(throws: FrameProtectionError.self, "octet \(octet) bit \(bit)") { try result.get() }
                    }
                }
            }
        }
    }

    @Test func flipsOfStructuralBitsGiveTheirOwnErrors() {
        for (cipher, protected, key) in Self.cases {
            func flipped(_ octet: Int, _ mask: UInt8) -> [UInt8] {
                var out = protected
                out[octet] ^= mask
                return out
            }
            #expect(throws: FrameProtectionError.notManagementFrame(type: 1)) {
                try ManagementFrameProtection.unprotect(flipped(0, 0x04), key: key, cipher: cipher)
            }
            #expect(throws: FrameProtectionError.notProtected) {
                try ManagementFrameProtection.unprotect(flipped(1, 0x40), key: key, cipher: cipher)
            }
            #expect(throws: FrameProtectionError.htControlPresent) {
                try ManagementFrameProtection.unprotect(flipped(1, 0x80), key: key, cipher: cipher)
            }
            #expect(throws: FrameProtectionError.extendedIVClear) {
                try ManagementFrameProtection.unprotect(flipped(27, 0x20), key: key, cipher: cipher)
            }
            #expect(throws: FrameProtectionError.authenticationFailed) {
                try ManagementFrameProtection.unprotect(flipped(24, 0x01), key: key, cipher: cipher)
            }
            #expect(throws: FrameProtectionError.authenticationFailed) {
                try ManagementFrameProtection.unprotect(flipped(protected.count - 1, 0x01), key: key, cipher: cipher)
            }
        }
    }

    @Test func everyTruncationThrowsAClearError() {
        for (cipher, protected, key) in Self.cases {
            let minimum = 24 + 8 + cipher.frameMICLength
            for length in 0..<protected.count {
                let expected: FrameProtectionError =
                    length < 24
                    ? .frameTooShort(minimum: 24, actual: length)
                    : length < minimum ? .frameTooShort(minimum: minimum, actual: length) : .authenticationFailed
                #expect(throws: expected, "length \(length)") {
                    try ManagementFrameProtection.unprotect(Array(protected.prefix(length)), key: key, cipher: cipher)
                }
            }
            #expect(throws: FrameProtectionError.authenticationFailed) {
                try ManagementFrameProtection.unprotect(protected + [0], key: key, cipher: cipher)
            }
        }
    }

    @Test func protectRefusesWhatItCannotProtect() {
        let key = V.key16
        #expect(throws: FrameProtectionError.frameTooShort(minimum: 24, actual: 23)) {
            try ManagementFrameProtection.protect(
                Array(V.sdfPlain.prefix(23)),
                key: key,
                cipher: .ccmp128,
                packetNumber: 1
            )
        }
        // FC 08 00: a Data frame (Type 2).
        #expect(throws: FrameProtectionError.notManagementFrame(type: 2)) {
            try ManagementFrameProtection.protect(
                [0x08, 0x00] + V.sdfPlain.dropFirst(2),
                key: key,
                cipher: .ccmp128,
                packetNumber: 1
            )
        }
        #expect(throws: FrameProtectionError.alreadyProtected) {
            try ManagementFrameProtection.protect(V.sdfCCMP, key: key, cipher: .ccmp128, packetNumber: 1)
        }
        #expect(throws: FrameProtectionError.htControlPresent) {
            try ManagementFrameProtection.protect(
                [0xD0, 0x80] + V.sdfPlain.dropFirst(2),
                key: key,
                cipher: .ccmp128,
                packetNumber: 1
            )
        }
        #expect(throws: FrameProtectionError.packetNumberOutOfRange(0x1_0000_0000_0000)) {
            try ManagementFrameProtection.protect(
                V.sdfPlain,
                key: key,
                cipher: .ccmp128,
                packetNumber: 0x1_0000_0000_0000
            )
        }
        #expect(throws: FrameProtectionError.keyIDOutOfRange(4)) {
            try ManagementFrameProtection.protect(V.sdfPlain, key: key, cipher: .ccmp128, packetNumber: 1, keyID: 4)
        }
    }

    @Test func arbitraryBytesNeverTrap() {
        var generator = SplitMix64(seed: 0x4E41_4E33)  // BigNumberTests.swift
        for _ in 0..<2000 {
            let length = Int(generator.next() % 80)
            var frame = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if frame.count >= 28 {
                frame[0] &= 0xF3
                frame[1] |= 0x40
                frame[27] |= 0x20
            }
            for cipher in PASNCipher.allCases {
                let key = cipher == .ccmp128 ? V.key16 : V.key32
                #expect(throws: FrameProtectionError.self) {
                    try ManagementFrameProtection.unprotect(frame, key: key, cipher: cipher)
                }
            }
        }
    }
}
