/// NAN Identity Resolution attribute (NIRA, 0x2B, length 17; nan-wire-reference.md 2.17).
///
/// `Cipher Version (1) | Nonce (8) | Tag (8)`, Tag = Truncate-64(HMAC-SHA-256(NIK, "NIR" || NMI ||
/// Nonce)). hostap rejects a NIRA unless its length is exactly 17, and so does this parser. Cipher
/// versions other than 0 are kept (the receiver decides whether it can resolve them).
public struct IdentityResolutionAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.identityResolution
    public static let bodyLength = 17
    public static let nonceLength = 8
    public static let tagLength = 8

    /// 0 = 128-bit NIK, 64-bit Nonce, 64-bit Tag, HMAC-SHA-256.
    public var cipherVersion: UInt8
    public let nonce: [UInt8]
    public let tag: [UInt8]

    /// `nonce` and `tag` must be eight octets each (a programming error otherwise).
    public init(cipherVersion: UInt8 = 0, nonce: [UInt8], tag: [UInt8]) {
        precondition(nonce.count == Self.nonceLength && tag.count == Self.tagLength, "NIRA nonce and tag are 8 octets")
        self.cipherVersion = cipherVersion
        self.nonce = nonce
        self.tag = tag
    }

    public init(from reader: inout WireReader) throws(WireError) {
        guard reader.remaining == Self.bodyLength else {
            throw reader.error(.lengthMismatch(declared: reader.remaining, actual: Self.bodyLength), field: "Length")
        }
        cipherVersion = try reader.readUInt8("Cipher Version")
        nonce = try reader.readBytes(Self.nonceLength, "Nonce")
        tag = try reader.readBytes(Self.tagLength, "Tag")
    }

    public func write(to writer: inout WireWriter) {
        writer.write(cipherVersion)
        writer.write(nonce)
        writer.write(tag)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField(
                "cipherVersion",
                "Cipher Version",
                .named(
                    UInt64(cipherVersion),
                    cipherVersion == 0 ? "128-bit NIK, 64-bit Nonce, 64-bit Tag, HMAC-SHA-256" : "Reserved"
                )
            ),
            DecodedField("nonce", "Nonce", .bytes(nonce)),
            DecodedField("tag", "Tag", .bytes(tag)),
        ]
    }
}
