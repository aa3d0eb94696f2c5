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
