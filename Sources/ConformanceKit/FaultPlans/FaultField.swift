/// A named field of a frame that a `corrupt` step changes: a field of a NAN attribute
/// (wherever the attribute travels: an SDF, a NAF, or the NAN element of a PASN frame), or a
/// fixed field of a PASN Authentication frame. Offsets are into the attribute's body (after
/// ID and Length); a negative offset counts from the body's end, for fields that close a
/// variable-length attribute (the NPBA's method bitmap).
public struct FaultField: Hashable, Sendable, CustomStringConvertible {
    public enum Container: Hashable, Sendable {
        /// A NAN attribute, by Attribute ID (nan-wire-reference.md 2.2).
        case nanAttribute(id: UInt8)
        /// The Authentication frame's fixed fields (IEEE 802.11-2020 9.3.3.11).
        case authentication
        /// An element of an Authentication frame, by Element ID.
        case element(id: UInt8)
    }

    public let attribute: String
    public let field: String
    public let container: Container
    /// Into the body; negative counts from its end.
    public let offset: Int
    /// Octets; nil runs to the end of the body.
    public let length: Int?

    public var description: String { "\(attribute).\(field)" }

    /// The field `field` of `attribute`, or nil with what is known (for the error message).
    public static func named(attribute: String, field: String) -> FaultField? {
        guard let entry = catalogue[attribute], let place = entry.fields[field] else { return nil }
        return FaultField(
            attribute: attribute,
            field: field,
            container: entry.container,
            offset: place.offset,
            length: place.length
        )
    }

    /// Every attribute a plan may name, with its fields, for `--help` and errors.
    public static var known: [(attribute: String, fields: [String])] {
        catalogue.keys.sorted().map { ($0, catalogue[$0]!.fields.keys.sorted()) }
    }

    private struct Entry {
        var container: Container
        var fields: [String: (offset: Int, length: Int?)]
    }

    /// Layouts from nan-wire-reference.md (section in each comment) and IEEE 802.11-2020.
    private static let catalogue: [String: Entry] = [
        // 2.4 Service Descriptor Attribute (0x03).
        "service-descriptor": Entry(
            container: .nanAttribute(id: 0x03),
            fields: [
                "service-id": (0, 6), "instance-id": (6, 1), "requestor-instance-id": (7, 1),
                "service-control": (8, 1),
            ]
        ),
        // 2.5 Service Descriptor Extension Attribute (0x0E).
        "service-descriptor-extension": Entry(
            container: .nanAttribute(id: 0x0E),
            fields: ["instance-id": (0, 1), "control": (1, 2)]
        ),
        // 2.10 NDP attribute (0x10).
        "ndp": Entry(
            container: .nanAttribute(id: 0x10),
            fields: [
                "dialog-token": (0, 1), "type-and-status": (1, 1), "reason-code": (2, 1), "initiator-ndi": (3, 6),
                "ndp-id": (9, 1), "ndp-control": (10, 1),
            ]
        ),
        // 2.16 Device Capability Extension (0x2A).
        "device-capability-extension": Entry(
            container: .nanAttribute(id: 0x2A),
            fields: ["capability-info": (0, 2)]
        ),
        // 2.17 NAN Identity Resolution (0x2B).
        "identity-resolution": Entry(
            container: .nanAttribute(id: 0x2B),
            fields: ["cipher-version": (0, 1), "nonce": (1, 8), "tag": (9, 8)]
        ),
        // 2.18 NAN Pairing Bootstrapping (0x2C); the method bitmap closes the attribute.
        "pairing-bootstrapping": Entry(
            container: .nanAttribute(id: 0x2C),
            fields: ["dialog-token": (0, 1), "type-and-status": (1, 1), "reason-code": (2, 1), "methods": (-2, 2)]
        ),
        // IEEE 802.11-2020 9.3.3.11: Authentication Algorithm, Transaction Sequence, Status.
        "authentication": Entry(
            container: .authentication,
            fields: ["algorithm": (0, 2), "transaction-sequence": (2, 2), "status-code": (4, 2)]
        ),
        // IEEE 802.11-2020 9.4.2.305 (MIC element, ID 140): the MIC closes the PASN frames 2 and 3.
        "mic": Entry(container: .element(id: 140), fields: ["mic": (0, nil)]),
    ]
}
