import AwareTestSupport
import Crypto
import Testing

@testable import AwareCrypto

// Known answers, each from a public source:
// - RFC 6979 A.2.5 / A.2.6: the P-256 and P-384 key pairs (private key x, public key U = xG).
//   Both were also recomputed with Python `cryptography` 48.0.0 before being pasted here.
// - SEC 2 v2 2.4.2 / 2.5.1 (= FIPS 186-4 D.1.2.3 / D.1.2.4): p, b, n and G of P-256 / P-384.
// - 2G.x of P-256: platform-notes.md 3.3 (a verified mbedTLS run) and Python `cryptography`.
// - The hostap session fixture (pairing.pasn.*_ephemeral): real PASN ephemeral keys with their
//   y parity, for decompression.
private enum Vectors {
    static let p256PrivateKey = hex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let p256PublicKey = hex(
        "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
            + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    )
    static let p384PrivateKey = hex(
        "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5"
    )
    static let p384PublicKey = hex(
        "EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13"
            + "8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720"
    )
    static let p256Prime = hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    static let p256Order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
    static let p256B = hex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")
    static let p256Generator = hex(
        "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
            + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
    )
    static let p384Prime = hex(
        "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff"
    )
    static let p384Order = hex(
        "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"
    )
    static let p256TwoGX = hex("7cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978")

    static func scalar(_ value: Int, _ curve: EllipticCurve) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: curve.coordinateLength)
        bytes[bytes.count - 1] = UInt8(value)
        return bytes
    }
}

@Suite struct EllipticCurveGroupTests {
    @Test func p256ParametersMatchSEC2() throws {
        let group = try EllipticCurveGroup(.p256)
        #expect(try group.prime.bytes(length: 32) == Vectors.p256Prime)
        #expect(try group.order.bytes(length: 32) == Vectors.p256Order)
        #expect(try group.b.bytes(length: 32) == Vectors.p256B)
        #expect(try group.generator.coordinates() == Vectors.p256Generator)
        // mbedTLS stores no A for P-256 (A.p == NULL means a = -3): the wrapper must say p - 3.
        var aExpected = Vectors.p256Prime
        aExpected[31] -= 3
        #expect(try group.a.bytes(length: 32) == aExpected)
        #expect(group.coordinateLength == 32)
        #expect(EllipticCurve.p256.groupNumber == 19)
    }

    @Test func p384ParametersMatchSEC2() throws {
        let group = try EllipticCurveGroup(.p384)
        #expect(try group.prime.bytes(length: 48) == Vectors.p384Prime)
        #expect(try group.order.bytes(length: 48) == Vectors.p384Order)
        var aExpected = Vectors.p384Prime
        aExpected[47] -= 3
        #expect(try group.a.bytes(length: 48) == aExpected)
        #expect(EllipticCurve.p384.groupNumber == 20)
    }
}

@Suite struct EllipticCurvePointTests {
    @Test func p256ScalarMultiplicationKnownAnswerRFC6979() throws {
        #expect(try EllipticCurve.p256.multiplyGenerator(scalar: Vectors.p256PrivateKey) == Vectors.p256PublicKey)
        let generator = Array(Vectors.p256Generator)
        #expect(
            try EllipticCurve.p256.multiply(scalar: Vectors.p256PrivateKey, point: generator) == Vectors.p256PublicKey
        )
    }

    @Test func p384ScalarMultiplicationKnownAnswerRFC6979() throws {
        #expect(try EllipticCurve.p384.multiplyGenerator(scalar: Vectors.p384PrivateKey) == Vectors.p384PublicKey)
    }

    @Test func doublingTheGenerator() throws {
        let twoG = try EllipticCurve.p256.multiplyGenerator(scalar: Vectors.scalar(2, .p256))
        #expect(Array(twoG.prefix(32)) == Vectors.p256TwoGX)
    }

    @Test func generatorPlusTwoGIsThreeG() throws {
        for curve in EllipticCurve.allCases {
            let group = try EllipticCurveGroup(curve)
            let g = try group.generator
            let twoG = try g.multiplied(by: BigNumber(2))
            let threeG = try g.multiplied(by: BigNumber(3))
            #expect(try g.adding(twoG).coordinates() == threeG.coordinates())
            #expect(try curve.add(g.coordinates(), twoG.coordinates()) == threeG.coordinates())
        }
    }

    @Test func addingAPointToItselfDoubles() throws {
        let group = try EllipticCurveGroup(.p256)
        let g = try group.generator
        #expect(try g.adding(g).coordinates() == g.multiplied(by: BigNumber(2)).coordinates())
    }

    @Test func addingTheNegationGivesInfinity() throws {
        let group = try EllipticCurveGroup(.p256)
        let g = try group.generator
        let negated = try g.negated()
        #expect(try negated.x() == g.x())
        #expect(try negated.y().adding(g.y()) == group.prime)
        #expect(try g.adding(negated).isInfinity)
        #expect(throws: CryptoError.pointAtInfinity(operation: "point addition")) {
            try EllipticCurve.p256.add(g.coordinates(), negated.coordinates())
        }
        // (r - 1)G is -G.
        let rMinusOne = try group.order.subtracting(BigNumber(1))
        #expect(try g.multiplied(by: rMinusOne).coordinates() == negated.coordinates())
    }

    @Test func infinityIsTheIdentity() throws {
        let group = try EllipticCurveGroup(.p256)
        let g = try group.generator
        let infinity = EllipticCurvePoint(infinityOn: group)
        #expect(infinity.isInfinity)
        #expect(try infinity.adding(g).coordinates() == Vectors.p256Generator)
        #expect(try g.adding(infinity).coordinates() == Vectors.p256Generator)
        #expect(try infinity.negated().isInfinity)
        #expect(throws: CryptoError.pointAtInfinity(operation: "x coordinate")) { try infinity.coordinates() }
        #expect(throws: CryptoError.pointAtInfinity(operation: "scalar multiplication")) {
            try infinity.multiplied(by: BigNumber(2))
        }
    }

    @Test func scalarsOutsideOneToOrderMinusOneAreRefused() throws {
        let group = try EllipticCurveGroup(.p256)
        let g = try group.generator
        let refusal = CryptoError.scalarOutOfRange(
            field: "scalar",
            reason: "must be in [1, r - 1] for P-256 (group 19)"
        )
        #expect(throws: refusal) { try g.multiplied(by: BigNumber(0)) }
        #expect(throws: refusal) { try g.multiplied(by: group.order) }
        #expect(throws: refusal) { try g.multiplied(by: BigNumber(-1)) }
        #expect(throws: CryptoError.invalidLength(field: "scalar", expected: 32, actual: 31)) {
            try EllipticCurve.p256.multiplyGenerator(scalar: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test func decompressesTheHostapPASNEphemeralKeys() throws {
        for key in [HostapFixture.phoneEphemeral, HostapFixture.accessoryEphemeral] {
            let compressed = [key.yIsOdd ? 0x03 : 0x02] + key.x
            #expect(try EllipticCurve.p256.decode(sec1: compressed) == key.x + key.y)
            // The other prefix must give the other root, p - y.
            let otherPrefix = [key.yIsOdd ? 0x02 : 0x03] + key.x
            let group = try EllipticCurveGroup(.p256)
            let otherY = try group.prime.subtracting(BigNumber(bytes: key.y)).bytes(length: 32)
            #expect(try EllipticCurve.p256.decode(sec1: otherPrefix) == key.x + otherY)
            // And compressing gives back the fixture's form.
            let point = try EllipticCurvePoint(group: group, coordinates: key.x + key.y)
            #expect(try point.compressed() == compressed)
            #expect(try point.uncompressed() == [0x04] + key.x + key.y)
            // Both fixture keys have an even y, so 0x02 || x is the one on the wire.
            #expect(!key.yIsOdd)
            #expect(key.y.last.map { $0 & 1 == 0 } == true)
        }
    }

    @Test func rejectsPointsNotOnTheCurve() throws {
        var notOnCurve = Vectors.p256PublicKey
        notOnCurve[63] ^= 0x01
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) {
            try EllipticCurve.p256.validate(point: notOnCurve)
        }
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) {
            try EllipticCurve.p256.multiply(scalar: Vectors.p256PrivateKey, point: notOnCurve)
        }
        // x = 1: 1 - 3 + b is not a square mod p (checked with Python), so no point has x = 1.
        let xOne = Vectors.scalar(1, .p256)
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p256)) {
            try EllipticCurve.p256.decode(sec1: [0x02] + xOne)
        }
        #expect(throws: CryptoError.pointNotOnCurve(curve: .p384)) {
            try EllipticCurve.p384.decode(sec1: [0x03] + Vectors.scalar(1, .p384))
        }
    }

    @Test func rejectsCoordinatesNotBelowThePrime() throws {
        // x = p: congruent to 0, and (0, sqrt(b)) is a point, so only the range check can catch it.
        let xIsP = Vectors.p256Prime + Vectors.p256Generator.suffix(32)
        #expect(throws: CryptoError.coordinateOutOfRange(field: "x", curve: .p256)) {
            try EllipticCurve.p256.validate(point: xIsP)
        }
        let yTooLarge = Array(Vectors.p256Generator.prefix(32)) + [UInt8](repeating: 0xFF, count: 32)
        #expect(throws: CryptoError.coordinateOutOfRange(field: "y", curve: .p256)) {
            try EllipticCurve.p256.validate(point: yTooLarge)
        }
        #expect(throws: CryptoError.coordinateOutOfRange(field: "x", curve: .p256)) {
            try EllipticCurve.p256.decode(sec1: [0x02] + Vectors.p256Prime)
        }
    }

    @Test func rejectsMalformedEncodings() throws {
        #expect(throws: CryptoError.invalidLength(field: "point x || y", expected: 64, actual: 63)) {
            try EllipticCurve.p256.validate(point: Array(Vectors.p256PublicKey.dropLast()))
        }
        #expect(throws: CryptoError.invalidLength(field: "SEC 1 point", expected: 33, actual: 0)) {
            try EllipticCurve.p256.decode(sec1: [])
        }
        #expect(throws: CryptoError.invalidLength(field: "compressed point 0x02/0x03 || x", expected: 33, actual: 65)) {
            try EllipticCurve.p256.decode(sec1: [0x02] + Vectors.p256PublicKey)
        }
        #expect(throws: CryptoError.invalidLength(field: "uncompressed point 0x04 || x || y", expected: 65, actual: 33))
        {
            try EllipticCurve.p256.decode(sec1: [0x04] + Vectors.p256PrivateKey)
        }
        #expect(
            throws: CryptoError.invalidEncoding(field: "SEC 1 point", reason: "prefix 0x0 is not 0x02, 0x03 or 0x04")
        ) {
            try EllipticCurve.p256.decode(sec1: [0x00])
        }
        #expect(
            throws: CryptoError.invalidEncoding(field: "SEC 1 point", reason: "prefix 0x6 is not 0x02, 0x03 or 0x04")
        ) {
            try EllipticCurve.p256.decode(sec1: [0x06] + Vectors.p256PublicKey)
        }
    }

    @Test func pointsOfDifferentCurvesDoNotMix() throws {
        let p256 = try EllipticCurveGroup(.p256).generator
        let p384 = try EllipticCurveGroup(.p384).generator
        #expect(throws: CryptoError.curveMismatch(expected: .p256, actual: .p384)) { try p256.adding(p384) }
    }

    /// swift-crypto's ECDH computes x(k·Q) with BoringSSL: an independent implementation.
    @Test func agreesWithSwiftCryptoECDH() throws {
        for _ in 0..<8 {
            let mine = P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey().publicKey
            let shared = try mine.sharedSecretFromKeyAgreement(with: peer)
            let sharedX = shared.withUnsafeBytes { Array($0) }
            let product = try EllipticCurve.p256.multiply(
                scalar: Array(mine.rawRepresentation),
                point: Array(peer.rawRepresentation)
            )
            #expect(Array(product.prefix(32)) == sharedX)
            #expect(
                try EllipticCurve.p256.multiplyGenerator(scalar: Array(mine.rawRepresentation))
                    == Array(mine.publicKey.rawRepresentation)
            )
        }
    }
}

/// The PASN ephemeral public keys of the hostap session fixture
/// (Fixtures/hostap-session-A/transcript.json, `pairing.pasn.phone_ephemeral` and
/// `pairing.pasn.accessory_ephemeral`: hostap's own output), pasted so the test needs no file.
private enum HostapFixture {
    struct Key {
        var x: [UInt8]
        var y: [UInt8]
        var yIsOdd: Bool
    }

    static let phoneEphemeral = Key(
        x: hex("c7cc5e3e849d1c598248a45926e67cdc84de9696f9a2df3d890b630db5b5d66e"),
        y: hex("89abea0824a707b6894a0900cd1a6a57b88270af91bfbdebf9b316fd3b2fe150"),
        yIsOdd: false
    )
    static let accessoryEphemeral = Key(
        x: hex("1449d9fa3aa4b0a7a0bb9ec31a1b6706fbf951c0323ae9ba209d7485e1d54742"),
        y: hex("0fdbde66a5c75db65e1a25c221c8cfd9751a9a984c711527c7cebd9a37fa19cc"),
        yIsOdd: false
    )
}
