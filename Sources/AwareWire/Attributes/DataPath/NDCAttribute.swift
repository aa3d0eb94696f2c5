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

/// A Schedule Entry of the NDC attribute and of the NDL Immutable Schedule
/// (nan-wire-reference.md 2.8, 2.9): Map ID (1: b0-3 Map ID, b4-7 reserved) |
/// Time Bitmap Control (2, LE) | Time Bitmap Length (1) | Time Bitmap.
public struct ScheduleEntry: Hashable, Sendable, WireCodable, WireDescribable {
    /// The whole Map ID octet, reserved bits included.
    public var mapIDField: UInt8
    public var timeBitmap: TimeBitmap

    public init(mapIDField: UInt8, timeBitmap: TimeBitmap) {
        self.mapIDField = mapIDField
        self.timeBitmap = timeBitmap
    }

    public var mapID: UInt8 { mapIDField & 0x0F }

    public init(from reader: inout WireReader) throws(WireError) {
        mapIDField = try reader.readUInt8("Map ID")
        timeBitmap = try TimeBitmap(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        writer.write(mapIDField)
        timeBitmap.write(to: &writer)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("mapIDField", "Map ID field", .bits(UInt64(mapIDField), digits: 2)),
            DecodedField("mapID", "Map ID", .unsigned(UInt64(mapID))),
        ] + timeBitmap.decodedFields
    }
}
