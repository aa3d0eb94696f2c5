import AwareCore
import Testing

@testable import AwareWire

private func hex(_ text: String) -> [UInt8] { HexString.decode(text)! }

/// A small deterministic generator (SplitMix64), so failures replay.
private struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Mutated attribute bodies must either fail with a WireError or re-serialize byte for
/// byte: reserved bits and every length survive a round trip, and nothing traps.
@Suite struct DataPathMutationTests {
    private static let seeds: [(UInt8, [UInt8])] = [
        (0x12, hex("01 10 00 0e 00 a1 11 18 00 04 fe ff fe ff 11 51 20 00 00 09 00 fa 07 13 80 04 00 01 10 00")),
        (0x13, hex("21 c0 04 89 9e a7 01 00 18 00 01 fe")),
        (0x14, hex("05 11 00 1b 07 00 01 00 18 00 01 0f")),
        (0x15, hex("0c 03 00")),
        (0x17, hex("03 05 45 23 01 00 10 00 00 00 00 02 00 00 07 04 15 73 01 00 01")),
        (0x10, hex("01 00 00 02 b0 00 00 01 02 01 3d 03 02 a0 00 00 01 01 aa bb")),
        (
            0x29,
            hex(
                "02 11 00 02 b0 00 00 01 02 01 30 02 a0 00 00 01 01 00 08 00 00 a0 00 ff fe 00 01 01 01 04 00 50 6f 9a 02"
            )
        ),
        (0x1D, hex("07 2d 02 aa bb ff 03 23 01 02")),
        (0x22, hex("9d 01 01 05 01")),
        (0x23, hex("02 00 01 03 aa bb 00 00 09 04")),
        (0x24, hex("01 02 01 08 00 00" + String(repeating: "00", count: 72 + 16) + "00 02 ab cd")),
    ]

    private static func reserialize(id: UInt8, body: [UInt8]) throws(WireError) -> [UInt8] {
        let structure = "attribute 0x\(HexString.byte(id))"
        switch id {
        case 0x12: return try AvailabilityAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x13: return try NDCAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x14: return try NDLAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x15: return try NDLQoSAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x17: return try UnalignedScheduleAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x10: return try NDPAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x29: return try NDPExtensionAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x1D: return try ElementContainerAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x22: return try CipherSuiteInfoAttribute(wireBytes: body, structure: structure).wireBytes
        case 0x23: return try SecurityContextInfoAttribute(wireBytes: body, structure: structure).wireBytes
        default: return try SharedKeyDescriptorAttribute(wireBytes: body, structure: structure).wireBytes
        }
    }

    private static func decoded(id: UInt8, body: [UInt8]) throws(WireError) -> [DecodedField] {
        let structure = "attribute 0x\(HexString.byte(id))"
        switch id {
        case 0x12: return try AvailabilityAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x13: return try NDCAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x14: return try NDLAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x15: return try NDLQoSAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x17: return try UnalignedScheduleAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x10: return try NDPAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x29: return try NDPExtensionAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x1D: return try ElementContainerAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x22: return try CipherSuiteInfoAttribute(wireBytes: body, structure: structure).decodedFields
        case 0x23: return try SecurityContextInfoAttribute(wireBytes: body, structure: structure).decodedFields
        default: return try SharedKeyDescriptorAttribute(wireBytes: body, structure: structure).decodedFields
        }
    }

    /// Keys that break the JSON view: duplicates within one structure, or not lowerCamelCase.
    private static func badKeys(_ fields: [DecodedField]) -> [String] {
        var bad: [String] = []
        var seen: Set<String> = []
        for field in fields {
            let first = field.key.unicodeScalars.first
            let camel =
                first.map { ("a"..."z").contains($0) } == true
                && field.key.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                }
            if !seen.insert(field.key).inserted || !camel { bad.append(field.key) }
            bad += badKeys(in: field.value)
        }
        return bad
    }

    private static func badKeys(in value: DecodedValue) -> [String] {
        switch value {
        case .fields(let nested): badKeys(nested)
        case .list(let items): items.flatMap { badKeys(in: $0) }
        default: []
        }
    }

    @Test func decodedKeysAreUniqueLowerCamelCase() throws {
        let probe = [
            DecodedField("x", "", .flag(true)), DecodedField("x", "", .flag(true)),
            DecodedField("Bad", "", .flag(true)),
        ]
        #expect(Self.badKeys(probe) == ["x", "Bad"])
        for (id, body) in Self.seeds {
            #expect(Self.badKeys(try Self.decoded(id: id, body: body)).isEmpty, "0x\(HexString.byte(id))")
        }
    }

    @Test func seedsRoundTrip() throws {
        for (id, body) in Self.seeds {
            #expect(try Self.reserialize(id: id, body: body) == body, "0x\(HexString.byte(id))")
        }
    }

    @Test func mutatedBodiesParseExactlyOrFailTyped() {
        var random = SplitMix64(state: 0x4157_4152_4542_4E43)
        var parsed = 0
        for round in 0..<4000 {
            let (id, seed) = Self.seeds[round % Self.seeds.count]
            var body = seed
            for _ in 0..<(1 + random.below(3)) {
                switch random.below(4) {
                case 0 where !body.isEmpty:
                    body[random.below(body.count)] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
                case 1 where !body.isEmpty:
                    body[random.below(body.count)] = UInt8(truncatingIfNeeded: random.next())
                case 2 where !body.isEmpty:
                    body.removeLast(1 + random.below(min(4, body.count)))
                default:
                    body.append(UInt8(truncatingIfNeeded: random.next()))
                }
            }
            do {
                let again = try Self.reserialize(id: id, body: body)
                parsed += 1
                #expect(again == body, "0x\(HexString.byte(id)) \(HexString.encode(body))")
            } catch {
                #expect(error.offset >= 0 && error.offset <= body.count)
            }
        }
        #expect(parsed > 200)
    }
}
