/// Security Context Info attribute (SCIA, 0x23) (nan-wire-reference.md 2.14): a list of
/// Security Context Identifiers filling the body. Publishers may list one ND-PMKID per
/// cipher suite.
public struct SecurityContextInfoAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.securityContextInfo

    public var identifiers: [SecurityContextIdentifier]

    public init(identifiers: [SecurityContextIdentifier]) {
        self.identifiers = identifiers
    }

    /// The SCIDs of type ND-PMKID, in order.
    public var ndPMKIDs: [[UInt8]] {
        identifiers.filter { $0.type == SecurityContextIdentifier.ndPMKIDType }.map(\.identifier)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        identifiers = []
        while !reader.isAtEnd { identifiers.append(try SecurityContextIdentifier(from: &reader)) }
    }

    public func write(to writer: inout WireWriter) {
        for identifier in identifiers { identifier.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField(
                "securityContextIdentifiers",
                "Security Context Identifiers",
                .list(identifiers.map { .fields($0.decodedFields) })
            )
        ]
    }
}

/// One Security Context Identifier of the SCIA (nan-wire-reference.md 2.14; hostap
/// `struct nan_sec_ctxt`): SCID Length (2, LE; counts the SCID only) | SCID Type (1) |
/// Publish ID (1) | SCID.
public struct SecurityContextIdentifier: Hashable, Sendable, WireCodable, WireDescribable {
    /// SCID Type 1: the SCID is an ND-PMKID (16 octets).
    public static let ndPMKIDType: UInt8 = 1

    public var type: UInt8
    public var publishID: UInt8
    public var identifier: [UInt8]

    public init(type: UInt8, publishID: UInt8, identifier: [UInt8]) {
        precondition(identifier.count <= 0xFFFF, "SCID Length is two octets")
        self.type = type
        self.publishID = publishID
        self.identifier = identifier
    }

    public static func ndPMKID(_ pmkid: [UInt8], publishID: UInt8) -> Self {
        Self(type: ndPMKIDType, publishID: publishID, identifier: pmkid)
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let length = Int(try reader.readUInt16LE("SCID Length"))
        type = try reader.readUInt8("SCID Type")
        publishID = try reader.readUInt8("Publish ID")
        guard length <= reader.remaining else {
            throw reader.error(.lengthMismatch(declared: length, actual: reader.remaining), field: "SCID Length")
        }
        identifier = try reader.readBytes(length, "SCID")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(UInt16(truncatingIfNeeded: identifier.count))
        writer.write(type)
        writer.write(publishID)
        writer.write(identifier)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("scidLength", "SCID Length", .unsigned(UInt64(identifier.count))),
            DecodedField(
                "scidType",
                "SCID Type",
                .named(UInt64(type), type == Self.ndPMKIDType ? "ND-PMKID" : "Reserved")
            ),
            DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID))),
            DecodedField("scid", "SCID", .bytes(identifier)),
        ]
    }
}
