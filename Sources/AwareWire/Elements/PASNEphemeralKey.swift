/// The Finite Cyclic Group and Ephemeral Public Key of the PASN Parameters element
/// (nan-wire-reference.md 3.4.1): `Group (2, LE) | Key Length (1) | Key`, where the key is
/// `0x02 || X` (compressed, RFC 5480) as hostap sends it, or `0x04 || X || Y`.
public struct PASNEphemeralKey: Hashable, Sendable, WireDescribable {
    /// The IANA group number: 19 (P-256) or 20 (P-384) in NAN pairing.
    public var group: UInt16
    public var publicKey: [UInt8]

    /// `publicKey` must be at most 255 octets.
    public init(group: UInt16, publicKey: [UInt8]) {
        precondition(publicKey.count <= 0xFF, "a PASN ephemeral key is at most 255 octets")
        self.group = group
        self.publicKey = publicKey
    }

    init(from reader: inout WireReader) throws(WireError) {
        group = try reader.readUInt16LE("Finite Cyclic Group")
        let length = Int(try reader.readUInt8("Key Length"))
        publicKey = try reader.readBytes(length, "Ephemeral Public Key")
    }

    func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(group)
        writer.withLength8 { $0.write(publicKey) }
    }

    /// The point encoding octet (RFC 5480): 2 or 3 compressed, 4 uncompressed.
    public var encoding: DecodedValue? {
        guard let first = publicKey.first else { return nil }
        let name =
            switch first {
            case 0x02: "Compressed, even y"
            case 0x03: "Compressed, odd y"
            case 0x04: "Uncompressed"
            default: "Unknown"
            }
        return .named(UInt64(first), name)
    }

    public var decodedFields: [DecodedField] {
        let groupName =
            switch group {
            case 19: "P-256"
            case 20: "P-384"
            case 21: "P-521"
            default: "Other"
            }
        var fields = [
            DecodedField("group", "Finite Cyclic Group", .named(UInt64(group), groupName)),
            DecodedField("keyLength", "Key Length", .unsigned(UInt64(publicKey.count))),
        ]
        if let encoding { fields.append(DecodedField("keyEncoding", "Key Encoding", encoding)) }
        fields.append(DecodedField("ephemeralPublicKey", "Ephemeral Public Key", .bytes(publicKey)))
        fields += coordinateFields
        return fields
    }

    /// The point's coordinates after the encoding octet (RFC 5480): `x` for a compressed
    /// key, `x` and `y` for an uncompressed one. hostap's key is `0x02 || x`, and x is what
    /// the DH computation uses (hostap session A, wire_locations `public.x`).
    private var coordinateFields: [DecodedField] {
        guard let first = publicKey.first else { return [] }
        let point = publicKey.dropFirst()
        switch first {
        case 0x02, 0x03:
            return [DecodedField("x", "X Coordinate", .bytes(Array(point)))]
        case 0x04 where !point.isEmpty && point.count % 2 == 0:
            let half = point.startIndex + point.count / 2
            return [
                DecodedField("x", "X Coordinate", .bytes(Array(point[..<half]))),
                DecodedField("y", "Y Coordinate", .bytes(Array(point[half...]))),
            ]
        default:
            return []
        }
    }
}
