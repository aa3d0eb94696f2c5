/// NAN Availability attribute (0x12) (nan-wire-reference.md 2.7):
/// Sequence ID (1) | Attribute Control (2, LE) | Availability Entry List.
///
/// Attribute Control: b0-3 Map ID, b4 Committed Changed, b5 Potential Changed, b6 Public
/// Availability Attribute Changed, b7 NDC Attribute Changed, b8-15 reserved (kept raw).
public struct AvailabilityAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.availability

    public var sequenceID: UInt8
    public var attributeControl: UInt16
    public var entries: [AvailabilityEntry]

    public init(sequenceID: UInt8, attributeControl: UInt16, entries: [AvailabilityEntry]) {
        self.sequenceID = sequenceID
        self.attributeControl = attributeControl
        self.entries = entries
    }

    /// - Parameter mapID: 0...15; higher bits are dropped.
    public init(
        sequenceID: UInt8,
        mapID: UInt8,
        committedChanged: Bool = false,
        potentialChanged: Bool = false,
        publicAvailabilityChanged: Bool = false,
        ndcChanged: Bool = false,
        entries: [AvailabilityEntry]
    ) {
        var control = UInt16(mapID & 0x0F)
        control |= committedChanged ? 0x10 : 0
        control |= potentialChanged ? 0x20 : 0
        control |= publicAvailabilityChanged ? 0x40 : 0
        control |= ndcChanged ? 0x80 : 0
        self.init(sequenceID: sequenceID, attributeControl: control, entries: entries)
    }

    public var mapID: UInt8 { UInt8(truncatingIfNeeded: attributeControl) & 0x0F }
    public var committedChanged: Bool { attributeControl & 0x10 != 0 }
    public var potentialChanged: Bool { attributeControl & 0x20 != 0 }
    public var publicAvailabilityChanged: Bool { attributeControl & 0x40 != 0 }
    public var ndcChanged: Bool { attributeControl & 0x80 != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        sequenceID = try reader.readUInt8("Sequence ID")
        attributeControl = try reader.readUInt16LE("Attribute Control")
        entries = []
        while !reader.isAtEnd {
            entries.append(try AvailabilityEntry(from: &reader))
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(sequenceID)
        writer.writeUInt16LE(attributeControl)
        for entry in entries { entry.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("sequenceID", "Sequence ID", .unsigned(UInt64(sequenceID))),
            DecodedField("attributeControl", "Attribute Control", .bits(UInt64(attributeControl), digits: 4)),
            DecodedField("mapID", "Map ID", .unsigned(UInt64(mapID))),
            DecodedField("committedChanged", "Committed Changed", .flag(committedChanged)),
            DecodedField("potentialChanged", "Potential Changed", .flag(potentialChanged)),
            DecodedField(
                "publicAvailabilityChanged",
                "Public Availability Attribute Changed",
                .flag(publicAvailabilityChanged)
            ),
            DecodedField("ndcChanged", "NDC Attribute Changed", .flag(ndcChanged)),
            DecodedField(
                "availabilityEntries",
                "Availability Entries",
                .list(entries.map { .fields($0.decodedFields) })
            ),
        ]
    }
}
