/// Unaligned Schedule attribute (0x17) (nan-wire-reference.md 2.8):
/// Attribute Control (2, LE: b0-3 Schedule ID, b8-11 Sequence ID, other bits reserved) |
/// Starting Time (4, LE) | Duration (4, LE) | Period (4, LE) | Count Down (1) |
/// ULW Overwrite (1: b0 Overwrite All, b1-4 Map ID) | [ULW Control | Band ID or Channel Entry].
///
/// hostap models the control as two octets (`sched_id`, `seq_id`); the bit positions
/// agree. Raw control octets are kept so reserved bits survive.
public struct UnalignedScheduleAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.unalignedSchedule

    public var attributeControl: UInt16
    public var startingTime: UInt32
    public var duration: UInt32
    public var period: UInt32
    public var countDown: UInt8
    public var ulwOverwrite: UInt8
    public var channel: UnalignedScheduleChannel?

    public init(
        attributeControl: UInt16,
        startingTime: UInt32,
        duration: UInt32,
        period: UInt32,
        countDown: UInt8,
        ulwOverwrite: UInt8,
        channel: UnalignedScheduleChannel? = nil
    ) {
        self.attributeControl = attributeControl
        self.startingTime = startingTime
        self.duration = duration
        self.period = period
        self.countDown = countDown
        self.ulwOverwrite = ulwOverwrite
        self.channel = channel
    }

    /// - Parameters: scheduleID and sequenceID 0...15, mapID 0...15; higher bits are dropped.
    public init(
        scheduleID: UInt8,
        sequenceID: UInt8,
        startingTime: UInt32,
        duration: UInt32,
        period: UInt32,
        countDown: UInt8,
        overwriteAll: Bool,
        overwriteMapID: UInt8 = 0,
        channel: UnalignedScheduleChannel? = nil
    ) {
        self.init(
            attributeControl: UInt16(scheduleID & 0x0F) | UInt16(sequenceID & 0x0F) << 8,
            startingTime: startingTime,
            duration: duration,
            period: period,
            countDown: countDown,
            ulwOverwrite: (overwriteAll ? 0x01 : 0) | (overwriteMapID & 0x0F) << 1,
            channel: channel
        )
    }

    public var scheduleID: UInt8 { UInt8(truncatingIfNeeded: attributeControl) & 0x0F }
    public var sequenceID: UInt8 { UInt8(truncatingIfNeeded: attributeControl >> 8) & 0x0F }
    public var overwriteAll: Bool { ulwOverwrite & 0x01 != 0 }
    public var overwriteMapID: UInt8 { (ulwOverwrite >> 1) & 0x0F }

    public init(from reader: inout WireReader) throws(WireError) {
        attributeControl = try reader.readUInt16LE("Attribute Control")
        startingTime = try reader.readUInt32LE("Starting Time")
        duration = try reader.readUInt32LE("Duration")
        period = try reader.readUInt32LE("Period")
        countDown = try reader.readUInt8("Count Down")
        ulwOverwrite = try reader.readUInt8("ULW Overwrite")
        channel = reader.isAtEnd ? nil : try UnalignedScheduleChannel(from: &reader)
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(attributeControl)
        writer.writeUInt32LE(startingTime)
        writer.writeUInt32LE(duration)
        writer.writeUInt32LE(period)
        writer.write(countDown)
        writer.write(ulwOverwrite)
        channel?.write(to: &writer)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("attributeControl", "Attribute Control", .bits(UInt64(attributeControl), digits: 4)),
            DecodedField("scheduleID", "Schedule ID", .unsigned(UInt64(scheduleID))),
            DecodedField("sequenceID", "Sequence ID", .unsigned(UInt64(sequenceID))),
            DecodedField("startingTime", "Starting Time", .unsigned(UInt64(startingTime))),
            DecodedField("duration", "Duration", .unsigned(UInt64(duration))),
            DecodedField("period", "Period", .unsigned(UInt64(period))),
            DecodedField("countDown", "Count Down", .unsigned(UInt64(countDown))),
            DecodedField("ulwOverwrite", "ULW Overwrite", .bits(UInt64(ulwOverwrite), digits: 2)),
            DecodedField("overwriteAll", "Overwrite All", .flag(overwriteAll)),
            DecodedField("overwriteMapID", "Map ID", .unsigned(UInt64(overwriteMapID))),
        ]
        if let channel {
            fields.append(DecodedField("ulw", "ULW Control and Channel", .fields(channel.decodedFields)))
        }
        return fields
    }
}
