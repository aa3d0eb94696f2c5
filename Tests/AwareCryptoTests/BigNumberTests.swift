import AwareTestSupport
import Testing

@testable import AwareCrypto

@Suite struct BigNumberTests {
    @Test func bytesRoundTripAtFixedLength() throws {
        let number = try BigNumber(bytes: hex("00 00 01 02 03"))
        #expect(number.byteCount == 3)
        #expect(number.bitLength == 17)
        #expect(try number.bytes(length: 3) == hex("010203"))
        #expect(try number.bytes(length: 6) == hex("000000010203"))
        #expect(try BigNumber(bytes: []).isZero)
        #expect(try BigNumber(0).bytes(length: 2) == [0, 0])
    }

    @Test func refusesWidthsItDoesNotFit() throws {
        let number = try BigNumber(bytes: hex("010203"))
        #expect(throws: CryptoError.valueTooLarge(field: "big number", length: 2)) { try number.bytes(length: 2) }
        #expect(throws: CryptoError.negativeValue(field: "big number")) { try BigNumber(-5).bytes(length: 4) }
    }

    @Test func arithmetic() throws {
        let a = BigNumber(1000)
        let b = BigNumber(7)
        #expect(try a.adding(b) == BigNumber(1007))
        #expect(try b.subtracting(a) == BigNumber(-993))
        #expect(try b.subtracting(a).isNegative)
        #expect(try a.multiplied(by: b) == BigNumber(7000))
        #expect(try a.modulo(b) == BigNumber(6))
        // The residue is never negative: -993 mod 7 = 1 (since -993 = -142·7 + 1).
        #expect(try b.subtracting(a).modulo(b) == BigNumber(1))
        #expect(try a.shiftedRight(by: 3) == BigNumber(125))
        #expect(a > b)
        #expect(b.compare(to: a) == -1)
        #expect(BigNumber(7).isOdd)
        #expect(!BigNumber(1000).isOdd)
        #expect(BigNumber(-255).description == "-ff")
        #expect(BigNumber(0).description == "00")
    }

    @Test func modularInverseAndPower() throws {
        // 3 · 5 = 15 ≡ 1 (mod 7); 3^6 ≡ 1 (mod 7) by Fermat; 2^10 = 1024 ≡ 1024 - 146·7 = 2.
        #expect(try BigNumber(3).inverse(modulo: BigNumber(7)) == BigNumber(5))
        #expect(try BigNumber(3).power(BigNumber(6), modulo: BigNumber(7)) == BigNumber(1))
        #expect(try BigNumber(2).power(BigNumber(10), modulo: BigNumber(7)) == BigNumber(2))
        // Fermat in P-256's field: a^(p-1) = 1 for a = 2.
        let p = try EllipticCurveGroup(.p256).prime
        #expect(try BigNumber(2).power(p.subtracting(BigNumber(1)), modulo: p) == BigNumber(1))
        #expect(try BigNumber(2).inverse(modulo: p).multiplied(by: BigNumber(2)).modulo(p) == BigNumber(1))
    }

    @Test func refusesImpossibleModularOperations() throws {
        #expect(throws: CryptoError.notInvertible(operation: "inverse modulo")) {
            try BigNumber(6).inverse(modulo: BigNumber(9))
        }
        #expect(throws: CryptoError.invalidModulus(operation: "inverse modulo")) {
            try BigNumber(6).inverse(modulo: BigNumber(1))
        }
        #expect(throws: CryptoError.invalidModulus(operation: "modulo")) { try BigNumber(6).modulo(BigNumber(0)) }
        #expect(throws: CryptoError.invalidModulus(operation: "modular exponentiation (the modulus must be odd)")) {
            try BigNumber(6).power(BigNumber(2), modulo: BigNumber(8))
        }
        #expect(throws: CryptoError.negativeValue(field: "exponent")) {
            try BigNumber(6).power(BigNumber(-2), modulo: BigNumber(9))
        }
    }

    @Test func randomDrawsStayInRangeAndFollowTheGenerator() throws {
        let group = try EllipticCurveGroup(.p256)
        let lower = BigNumber(2)
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        for _ in 0..<16 {
            let a = try BigNumber.random(from: lower, below: group.order, using: &first)
            let b = try BigNumber.random(from: lower, below: group.order, using: &second)
            let c = try BigNumber.random(from: lower, below: group.order, using: &other)
            #expect(a >= lower && a < group.order)
            #expect(a == b)
            #expect(a != c)
        }
        // A one-element range has one answer.
        var generator = SplitMix64(seed: 1)
        #expect(try BigNumber.random(from: BigNumber(5), below: BigNumber(6), using: &generator) == BigNumber(5))
        // Small ranges are covered entirely.
        var seen = Set<String>()
        for _ in 0..<64 {
            seen.insert(try BigNumber.random(from: BigNumber(10), below: BigNumber(14), using: &generator).description)
        }
        #expect(seen == ["0a", "0b", "0c", "0d"])
    }

    @Test func refusesEmptyRangesAndStuckGenerators() throws {
        var generator = SplitMix64(seed: 1)
        #expect(throws: CryptoError.emptyRange(operation: "random number")) {
            try BigNumber.random(from: BigNumber(5), below: BigNumber(5), using: &generator)
        }
        // All-ones octets always land on 3 in [0, 3), so rejection sampling never succeeds.
        var stuck = StuckGenerator()
        #expect(throws: CryptoError.randomSourceExhausted(operation: "random number")) {
            try BigNumber.random(from: BigNumber(0), below: BigNumber(3), using: &stuck)
        }
    }
}

/// A seeded generator (Vigna's SplitMix64) so draws are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private struct StuckGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { .max }
}
