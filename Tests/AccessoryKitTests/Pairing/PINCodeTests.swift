import Testing

@testable import AccessoryKit

/// A generator that hands out the given values in turn, so the draw can be followed by hand.
struct ScriptedGenerator: RandomNumberGenerator {
    var values: [UInt64]
    var drawn = 0

    init(_ values: [UInt64]) {
        self.values = values
    }

    mutating func next() -> UInt64 {
        defer { drawn += 1 }
        return values[drawn % values.count]
    }
}

@Suite struct PINCodeTests {
    @Test func octetsFrom250UpAreDrawnAgain() throws {
        // Low octets 0xFF, 0xFA (250) are refused; 0xF9 (249) -> 9, 0x00 -> 0, 0x0D (13) -> 3,
        // 0x07 -> 7, 0x2A (42) -> 2, 0x63 (99) -> 9; the high octets are ignored.
        var generator = ScriptedGenerator([0xFF, 0x1234_FA, 0xF9, 0x00, 0xAB00_0D, 0x07, 0x2A, 0x63])
        let pin = try PINCode(length: 6, using: &generator)
        #expect(pin.digits == "903729")
        #expect(generator.drawn == 8)
    }

    @Test func everyDigitIsEquallyLikely() throws {
        // Octets 0-249 in turn give each digit 25 times; 250-255 are refused. Taking `% 10` of
        // all 256 would give 0-5 26 times and 6-9 25 times.
        var generator = ScriptedGenerator((0...255).map { UInt64($0) })
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<50 {
            for scalar in try PINCode(length: 5, using: &generator).digits.unicodeScalars {
                counts[Int(scalar.value) - 0x30] += 1
            }
        }
        #expect(counts == [Int](repeating: 25, count: 10))
        #expect(generator.drawn == 250)
        // The next digit skips 250-255 and starts the cycle again at 0.
        #expect(try PINCode(length: 4, using: &generator).digits == "0123")
        #expect(generator.drawn == 260)
    }

    @Test func theSystemGeneratorGivesTheAskedLength() throws {
        for length in 4...8 {
            let pin = try PINCode(length: length)
            #expect(pin.length == length)
            #expect(pin.digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) })
        }
    }

    @Test func lengthsOutside4To8AreRefused() {
        #expect(throws: PINCodeError.lengthOutOfRange(3)) { try PINCode(length: 3) }
        #expect(throws: PINCodeError.lengthOutOfRange(9)) { try PINCode(length: 9) }
    }

    @Test func aFixedPINIsTakenAsItIs() throws {
        #expect(try PINCode(fixed: "0042").digits == "0042")
        #expect(throws: PINCodeError.notDigits) { try PINCode(fixed: "12a4") }
        #expect(throws: PINCodeError.notDigits) { try PINCode(fixed: "123") }
        #expect(throws: PINCodeError.notDigits) { try PINCode(fixed: "123456789") }
        #expect(throws: PINCodeError.notDigits) { try PINCode(fixed: "１２３４") }
    }

    @Test func theProfileChoosesFixedOrDrawn() throws {
        #expect(try PINCode(policy: PinPolicy(length: 4, fixed: "2468")).digits == "2468")
        #expect(try PINCode(policy: PinPolicy(length: 7)).length == 7)
    }

    @Test func descriptionsNeverShowTheDigits() throws {
        let pin = try PINCode(fixed: "483920")
        var dumped = ""
        dump(pin, to: &dumped)
        for text in ["\(pin)", String(reflecting: pin), dumped, "\([pin])"] {
            #expect(!text.contains("483920"), "\(text)")
        }
        #expect(pin.description == "PIN(6 digits)")
    }
}
