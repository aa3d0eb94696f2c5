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

/// The optional tail of an Unaligned Schedule attribute (nan-wire-reference.md 2.8):
/// ULW Control (1) | Band ID (1) or Channel Entry (4, or 6 with the auxiliary bitmap).
///
/// ULW Control: b0-1 type (0 Band ID, 1 Channel Entry, 2 Channel Entry with Auxiliary
/// Channel Bitmap, 3 reserved), b2 Channel Availability, b3-6 Rx NSS, b7 reserved. The raw
/// control is kept; its type bits are written from ``target``.
public struct UnalignedScheduleChannel: Hashable, Sendable, WireCodable, WireDescribable {
    public enum Target: Hashable, Sendable {
        case band(BandID)
        case channel(ChannelEntry)
    }

    public var ulwControl: UInt8
    public var target: Target

    /// The type bits of `ulwControl` are replaced by the ones `target` implies.
    public init(ulwControl: UInt8, target: Target) {
        self.ulwControl = ulwControl
        self.target = target
        self.ulwControl = (ulwControl & ~0x03) | type
    }

    /// - Parameter rxNSS: 0...15; higher bits are dropped.
    public init(target: Target, channelAvailability: Bool, rxNSS: UInt8) {
        self.init(ulwControl: (channelAvailability ? 0x04 : 0) | (rxNSS & 0x0F) << 3, target: target)
    }

    /// The type code written for ``target``.
    public var type: UInt8 {
        switch target {
        case .band: 0
        case .channel(let entry): entry.auxiliaryChannelBitmap == nil ? 1 : 2
        }
    }

    public var channelAvailability: Bool { ulwControl & 0x04 != 0 }
    public var rxNSS: UInt8 { (ulwControl >> 3) & 0x0F }

    public init(from reader: inout WireReader) throws(WireError) {
        let controlOffset = reader.offset
        ulwControl = try reader.readUInt8("ULW Control")
        switch ulwControl & 0x03 {
        case 0:
            target = .band(BandID(try reader.readUInt8("Band ID")))
        case 1:
            target = .channel(try ChannelEntry(from: &reader, auxiliaryChannelBitmapPresent: false))
        case 2:
            target = .channel(try ChannelEntry(from: &reader, auxiliaryChannelBitmapPresent: true))
        default:
            throw reader.error(.invalidValue("ULW Control type 3 is reserved"), field: "ULW Control", at: controlOffset)
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write((ulwControl & ~0x03) | type)
        switch target {
        case .band(let band): writer.write(band.rawValue)
        case .channel(let entry): entry.write(to: &writer)
        }
    }

    public var decodedFields: [DecodedField] {
        let typeName = ["Band ID", "Channel Entry", "Channel Entry with Auxiliary Channel Bitmap"][Int(type)]
        var fields = [
            DecodedField("ulwControl", "ULW Control", .bits(UInt64((ulwControl & ~0x03) | type), digits: 2)),
            DecodedField("type", "Type", .named(UInt64(type), typeName)),
            DecodedField("channelAvailability", "Channel Availability", .flag(channelAvailability)),
            DecodedField("rxNSS", "Rx NSS", .unsigned(UInt64(rxNSS))),
        ]
        switch target {
        case .band(let band): fields.append(DecodedField("bandID", "Band ID", band.decodedValue))
        case .channel(let entry):
            fields.append(DecodedField("channelEntry", "Channel Entry", .fields(entry.decodedFields)))
        }
        return fields
    }
}
