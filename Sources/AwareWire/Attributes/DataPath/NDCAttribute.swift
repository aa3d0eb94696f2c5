import AwareCore

/// NDC attribute (0x13) (nan-wire-reference.md 2.8):
/// NDC ID (6) | Attribute Control (1: b0 Selected NDC, b1-7 reserved) | Schedule Entries.
public struct NDCAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.ndc

    /// Six octets in the form of a MAC address.
    public var ndcID: MACAddress
    public var attributeControl: UInt8
    public var scheduleEntries: [ScheduleEntry]

    public init(ndcID: MACAddress, attributeControl: UInt8, scheduleEntries: [ScheduleEntry]) {
        self.ndcID = ndcID
        self.attributeControl = attributeControl
        self.scheduleEntries = scheduleEntries
    }

    public init(ndcID: MACAddress, selected: Bool, scheduleEntries: [ScheduleEntry]) {
        self.init(ndcID: ndcID, attributeControl: selected ? 0x01 : 0, scheduleEntries: scheduleEntries)
    }

    public var isSelected: Bool { attributeControl & 0x01 != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        ndcID = try reader.readMAC("NDC ID")
        attributeControl = try reader.readUInt8("Attribute Control")
        scheduleEntries = []
        while !reader.isAtEnd {
            scheduleEntries.append(try ScheduleEntry(from: &reader))
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(ndcID)
        writer.write(attributeControl)
        for entry in scheduleEntries { entry.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("ndcID", "NDC ID", .address(ndcID)),
            DecodedField("attributeControl", "Attribute Control", .bits(UInt64(attributeControl), digits: 2)),
            DecodedField("selectedNDC", "Selected NDC", .flag(isSelected)),
            DecodedField(
                "scheduleEntries",
                "Schedule Entries",
                .list(scheduleEntries.map { .fields($0.decodedFields) })
            ),
        ]
    }
}
