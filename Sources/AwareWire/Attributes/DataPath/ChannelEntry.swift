/// A Channel Entry (nan-wire-reference.md 2.7, 2.8):
/// Operating Class (1) | Channel Bitmap (2, LE) | Primary Channel Bitmap (1) |
/// [Auxiliary Channel Bitmap (2, LE)].
///
/// Whether the auxiliary bitmap is present is not in the entry itself: the enclosing
/// control says so (Non-contiguous BW bit of a band/channel list, ULW Control type 2),
/// so the parser is told.
public struct ChannelEntry: Hashable, Sendable, WireDescribable {
    public var operatingClass: UInt8
    /// Bit k = k-th channel of the operating class (op class < 131). For 6 GHz classes
    /// (>= 131) Wireshark reads the two octets as Start Channel Number | Number of Channels.
    public var channelBitmap: UInt16
    public var primaryChannelBitmap: UInt8
    /// Present only with non-contiguous bandwidth (80+80 MHz).
    public var auxiliaryChannelBitmap: UInt16?

    public init(
        operatingClass: UInt8,
        channelBitmap: UInt16,
        primaryChannelBitmap: UInt8,
        auxiliaryChannelBitmap: UInt16? = nil
    ) {
        self.operatingClass = operatingClass
        self.channelBitmap = channelBitmap
        self.primaryChannelBitmap = primaryChannelBitmap
        self.auxiliaryChannelBitmap = auxiliaryChannelBitmap
    }

    /// 4 octets, or 6 with the auxiliary channel bitmap.
    public var length: Int { auxiliaryChannelBitmap == nil ? 4 : 6 }

    public init(from reader: inout WireReader, auxiliaryChannelBitmapPresent: Bool) throws(WireError) {
        try reader.require(auxiliaryChannelBitmapPresent ? 6 : 4, field: "Channel Entry")
        operatingClass = try reader.readUInt8("Operating Class")
        channelBitmap = try reader.readUInt16LE("Channel Bitmap")
        primaryChannelBitmap = try reader.readUInt8("Primary Channel Bitmap")
        auxiliaryChannelBitmap =
            auxiliaryChannelBitmapPresent ? try reader.readUInt16LE("Auxiliary Channel Bitmap") : nil
    }

    public func write(to writer: inout WireWriter) {
        writer.write(operatingClass)
        writer.writeUInt16LE(channelBitmap)
        writer.write(primaryChannelBitmap)
        if let auxiliaryChannelBitmap { writer.writeUInt16LE(auxiliaryChannelBitmap) }
    }

    /// Operating classes from 131 up are 6 GHz (nan-wire-reference.md 2.7).
    public var is6GHzOperatingClass: Bool { operatingClass >= 131 }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("operatingClass", "Operating Class", .unsigned(UInt64(operatingClass))),
            DecodedField("channelBitmap", "Channel Bitmap", .bits(UInt64(channelBitmap), digits: 4)),
        ]
        if is6GHzOperatingClass {
            fields.append(
                DecodedField("startChannelNumber", "Start Channel Number", .unsigned(UInt64(channelBitmap & 0xFF)))
            )
            fields.append(DecodedField("numberOfChannels", "Number of Channels", .unsigned(UInt64(channelBitmap >> 8))))
        }
        fields.append(
            DecodedField(
                "primaryChannelBitmap",
                "Primary Channel Bitmap",
                .bits(UInt64(primaryChannelBitmap), digits: 2)
            )
        )
        if let auxiliaryChannelBitmap {
            fields.append(
                DecodedField(
                    "auxiliaryChannelBitmap",
                    "Auxiliary Channel Bitmap",
                    .bits(UInt64(auxiliaryChannelBitmap), digits: 4)
                )
            )
        }
        return fields
    }
}
