/// How frames and elements describe the NAN attributes they carry, without depending on
/// which attribute kinds ``NANAttribute`` decodes: the header fields always, then the
/// attribute's own fields when it describes itself, else its body octets under `raw`.
enum NANAttributeDescription {
    static func describe(_ attribute: NANAttribute) -> DecodedValue {
        let octets = attribute.wireBytes
        var fields = [
            DecodedField("attributeID", "Attribute ID", .named(UInt64(attribute.id.rawValue), attribute.id.name)),
            DecodedField("length", "Length", .unsigned(UInt64(max(0, octets.count - 3)))),
        ]
        if let describable = attribute as Any as? any WireDescribable {
            fields += describable.decodedFields
        } else {
            fields.append(DecodedField("raw", "Body", .bytes(Array(octets.dropFirst(3)))))
        }
        return .fields(fields)
    }
}
