import AwareCore

/// The six octets SDFs and NAFs share (nan-wire-reference.md 1.1):
/// `Category | Public Action = 09 | OUI 50 6F 9A | OUI Type`.
enum NANActionHeader {
    static let length = 6

    /// The OUI Type when `body` is an SDF or NAF (category 4 or 9, hostap's receive rule in
    /// nan-wire-reference.md 1.1), else nil.
    static func ouiType(of body: ArraySlice<UInt8>) -> UInt8? {
        guard body.count >= length,
            let first = body.first, NANActionCategory(rawValue: first) != nil,
            body[body.startIndex + 1] == NANActionCategory.vendorSpecificAction,
            body.dropFirst(2).prefix(3).elementsEqual(NANActionCategory.wfaOUI)
        else { return nil }
        return body[body.startIndex + 5]
    }

    static func read(from reader: inout WireReader, ouiType: UInt8) throws(WireError) -> NANActionCategory {
        let rawCategory = try reader.readUInt8("Category")
        guard let category = NANActionCategory(rawValue: rawCategory) else {
            throw reader.error(
                .invalidValue("category \(rawCategory) is not 4 or 9"),
                field: "Category",
                at: reader.offset - 1
            )
        }
        let action = try reader.readUInt8("Public Action")
        guard action == NANActionCategory.vendorSpecificAction else {
            throw reader.error(
                .invalidValue("action \(action) is not 9 (Vendor Specific)"),
                field: "Public Action",
                at: reader.offset - 1
            )
        }
        let oui = try reader.readBytes(3, "OUI")
        guard oui == NANActionCategory.wfaOUI else {
            throw reader.error(
                .invalidValue("OUI \(HexString.encode(oui)) is not 506f9a"),
                field: "OUI",
                at: reader.offset - 3
            )
        }
        let type = try reader.readUInt8("OUI Type")
        guard type == ouiType else {
            throw reader.error(
                .invalidValue("OUI type 0x\(HexString.byte(type)) is not 0x\(HexString.byte(ouiType))"),
                field: "OUI Type",
                at: reader.offset - 1
            )
        }
        return category
    }

    static func write(category: NANActionCategory, ouiType: UInt8, to writer: inout WireWriter) {
        writer.write(category.rawValue)
        writer.write(NANActionCategory.vendorSpecificAction)
        writer.write(NANActionCategory.wfaOUI)
        writer.write(ouiType)
    }

    static func describe(category: NANActionCategory, ouiType: UInt8, typeName: String) -> [DecodedField] {
        [
            DecodedField("category", "Category", category.decoded),
            DecodedField("publicAction", "Public Action", .named(9, "Vendor Specific")),
            DecodedField("oui", "OUI", .bytes(NANActionCategory.wfaOUI)),
            DecodedField("ouiType", "OUI Type", .named(UInt64(ouiType), typeName)),
        ]
    }
}
