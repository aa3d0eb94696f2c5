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
