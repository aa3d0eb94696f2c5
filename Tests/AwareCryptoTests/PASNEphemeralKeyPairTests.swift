import AwareCrypto
import AwareTestSupport
import Testing

/// PASN's ephemeral ECDH against hostap session A, and the keys it must refuse.
@Suite struct PASNEphemeralKeyPairTests {
    static func value(_ path: String) throws -> [UInt8] {
        try KDFTestFixtures.bytes(try KDFTestFixtures.transcript(), path)
    }

    @Test(arguments: ["pairing.pasn", "verification"])
    func bothSidesReachTheRecordedDHss(section: String) throws {
        let phone = try PASNEphemeralKeyPair(
            curve: .p256,
            privateKey: try Self.value("\(section).phone_ephemeral.private")
        )
        let accessory = try PASNEphemeralKeyPair(
            curve: .p256,
            privateKey: try Self.value("\(section).accessory_ephemeral.private")
        )
        #expect(Array(phone.publicPoint.prefix(32)) == (try Self.value("\(section).phone_ephemeral.public.x")))
        let dhss = try Self.value("\(section).dhss")
        // The wire form claims an even y even where it is odd (the accessory's verification key).
        #expect(try phone.sharedSecret(peerKey: accessory.wireKey) == dhss)
        #expect(try accessory.sharedSecret(peerKey: phone.wireKey) == dhss)
        #expect(try accessory.sharedSecret(peerKey: [0x04] + phone.publicPoint) == dhss)
    }

    @Test func refusesKeysThatAreNotPointsOrAreOurs() throws {
        let own = try PASNEphemeralKeyPair(curve: .p256, privateKey: [UInt8](repeating: 0, count: 31) + [7])
        // x = p, the field prime itself: not a field element, so no point.
        let prime = hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) { try own.sharedSecret(peerKey: [0x02] + prime) }
        // An uncompressed point off the curve: the generator's x with y + 1.
        let generator = hex(
            "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f6"
        )
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) { try own.sharedSecret(peerKey: [0x04] + generator) }
        #expect(throws: CryptoError.self) { try own.sharedSecret(peerKey: own.wireKey) }
        #expect(throws: CryptoError.self) { try own.sharedSecret(peerKey: [0x02] + [UInt8](repeating: 1, count: 31)) }
        #expect(throws: CryptoError.self) { try own.sharedSecret(peerKey: [0x05] + [UInt8](repeating: 1, count: 32)) }
        #expect(throws: CryptoError.self) { try own.sharedSecret(peerKey: []) }
    }

    @Test func refusesPrivateScalarsOutOfRange() {
        #expect(throws: CryptoError.self) {
            try PASNEphemeralKeyPair(curve: .p256, privateKey: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: CryptoError.self) {
            try PASNEphemeralKeyPair(curve: .p256, privateKey: [UInt8](repeating: 0xFF, count: 32))
        }
        #expect(throws: CryptoError.self) {
            try PASNEphemeralKeyPair(curve: .p384, privateKey: [UInt8](repeating: 1, count: 32))
        }
    }
}
