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
