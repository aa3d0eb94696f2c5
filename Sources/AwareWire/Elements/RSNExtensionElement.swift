/// The RSN Extension element, RSNXE (ID 244; IEEE 802.11-2020 9.4.2.241): the Extended RSN
/// Capabilities field, whose b0-b3 give the field's length minus one.
///
/// hostap sends a 2-octet field (`F4 02 21 00`), ESP-IDF a 1-octet one (`F4 01 20`)
/// (nan-wire-reference.md 3.4, 3.9), so the octets are kept as they came and the length is
/// preserved on write.
public struct RSNExtensionElement: ElementBody {
    public static let elementID: UInt8 = 244
    public static let structureName = "RSNX element"

    /// The Extended RSN Capabilities field, first octet first (the field is little-endian).
    public private(set) var capabilities: [UInt8]

    /// nil unless `capabilities` is 1 to 16 octets and its b0-b3 equal its length minus one.
    public init?(capabilities: [UInt8]) {
        guard let first = capabilities.first, Int(first & 0x0F) + 1 == capabilities.count else { return nil }
        self.capabilities = capabilities
    }

    /// An RSNXE with the SAE hash-to-element bit in a field of `octets` octets (hostap: 2).
    public static func saeHashToElement(octets: Int = 2) -> RSNExtensionElement {
        let length = max(1, min(16, octets))
        var field = [UInt8](repeating: 0, count: length)
        field[0] = UInt8(truncatingIfNeeded: length - 1) | 0x20
        return RSNExtensionElement(checked: field)
    }

    private init(checked: [UInt8]) { capabilities = checked }

    /// The Field Length sub-field (b0-b3) plus one.
    public var fieldLength: Int { Int((capabilities.first ?? 0) & 0x0F) + 1 }
    /// Protected TWT Operations Support (b4).
    public var protectedTWTOperations: Bool { bit(4) }
    /// SAE Hash-to-Element (b5): the SAE in PASN uses H2E (nan-wire-reference.md 3.4).
    public var saeHashToElement: Bool { bit(5) }
    /// SAE-PK (b6).
    public var saePK: Bool { bit(6) }

    private func bit(_ n: Int) -> Bool {
        let index = n / 8
        return index < capabilities.count && capabilities[index] & (1 << UInt8(n % 8)) != 0
    }

    public init(information reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let first = try reader.readUInt8("Extended RSN Capabilities")
        let declared = Int(first & 0x0F) + 1
        let actual = reader.remaining + 1
        guard declared == actual else {
            throw reader.error(
                .lengthMismatch(declared: declared, actual: actual),
                field: "Field Length",
                at: reader.offset - 1
            )
        }
        capabilities = [first] + reader.readRemaining()
    }

    public var information: [UInt8] { capabilities }

    public var decodedFields: [DecodedField] {
        var value: UInt64 = 0
        for (index, octet) in capabilities.prefix(8).enumerated() { value |= UInt64(octet) << UInt64(8 * index) }
        return [
            DecodedField(
                "extendedRSNCapabilities",
                "Extended RSN Capabilities",
                .bits(value, digits: 2 * min(8, capabilities.count))
            ),
            DecodedField("fieldLength", "Field Length", .unsigned(UInt64(fieldLength))),
            DecodedField(
                "protectedTWTOperationsSupport",
                "Protected TWT Operations Support",
                .flag(protectedTWTOperations)
            ),
            DecodedField("saeHashToElement", "SAE Hash-to-Element", .flag(saeHashToElement)),
            DecodedField("saePK", "SAE-PK", .flag(saePK)),
        ]
    }
}
