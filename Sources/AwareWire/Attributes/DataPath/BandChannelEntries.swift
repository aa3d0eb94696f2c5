/// A Band/Channel Entries List (nan-wire-reference.md 2.7):
/// Control (1): b0 Type (0 = Band IDs, 1 = Channel Entries), b1 Non-contiguous BW,
/// b2-3 reserved, b4-7 Number of Entries; then that many Band IDs (1 octet each) or
/// Channel Entries (4 octets, 6 with non-contiguous bandwidth).
///
/// Number of Entries is not stored: it is written from the list, and on receive it must
/// match the content exactly (the enclosing entry's length bounds the reader, and
/// leftover octets are an error there).
public struct BandChannelEntries: Hashable, Sendable, WireCodable, WireDescribable {
    public enum Entries: Hashable, Sendable {
        case bands([BandID])
        case channels([ChannelEntry])

        public var count: Int {
            switch self {
            case .bands(let bands): bands.count
            case .channels(let channels): channels.count
            }
        }
    }

    public var entries: Entries
    /// b1. With channel entries it says whether each carries an Auxiliary Channel Bitmap;
    /// with band IDs it has no meaning but is kept.
    public var nonContiguousBandwidth: Bool
    /// b2-3 as received (0...3).
    public var reservedBits: UInt8

    /// The Number of Entries field is four bits.
    public static let maxEntries = 15

    public init(bands: [BandID], reservedBits: UInt8 = 0) {
        precondition(bands.count <= Self.maxEntries, "Number of Entries is a 4-bit field")
        entries = .bands(bands)
        nonContiguousBandwidth = false
        self.reservedBits = reservedBits & 0x03
    }

    /// Non-contiguous BW is set when the entries carry an Auxiliary Channel Bitmap; either
    /// all entries carry one or none does.
    public init(channels: [ChannelEntry], reservedBits: UInt8 = 0) {
        precondition(channels.count <= Self.maxEntries, "Number of Entries is a 4-bit field")
        let withAux = channels.filter { $0.auxiliaryChannelBitmap != nil }.count
        precondition(withAux == 0 || withAux == channels.count, "all or no channel entries carry an aux bitmap")
        entries = .channels(channels)
        nonContiguousBandwidth = withAux > 0
        self.reservedBits = reservedBits & 0x03
    }

    /// The control octet as written.
    public var control: UInt8 {
        let type: UInt8
        if case .channels = entries { type = 1 } else { type = 0 }
        return type | (nonContiguousBandwidth ? 0x02 : 0) | (reservedBits & 0x03) << 2
            | UInt8(truncatingIfNeeded: entries.count & 0x0F) << 4
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let control = try reader.readUInt8("Band/Channel Entries Control")
        let count = Int(control >> 4)
        nonContiguousBandwidth = control & 0x02 != 0
        reservedBits = (control >> 2) & 0x03
        if control & 0x01 == 0 {
            var bands: [BandID] = []
            for _ in 0..<count { bands.append(BandID(try reader.readUInt8("Band ID"))) }
            entries = .bands(bands)
        } else {
            var channels: [ChannelEntry] = []
            for _ in 0..<count {
                channels.append(
                    try ChannelEntry(from: &reader, auxiliaryChannelBitmapPresent: nonContiguousBandwidth)
                )
            }
            entries = .channels(channels)
        }
    }

    public func write(to writer: inout WireWriter) {
        precondition(entries.count <= Self.maxEntries, "Number of Entries is a 4-bit field")
        writer.write(control)
        switch entries {
        case .bands(let bands):
            for band in bands { writer.write(band.rawValue) }
        case .channels(let channels):
            for var channel in channels {
                // The control's bit decides the layout on the wire, so every entry follows it.
                if nonContiguousBandwidth {
                    channel.auxiliaryChannelBitmap = channel.auxiliaryChannelBitmap ?? 0
                } else {
                    channel.auxiliaryChannelBitmap = nil
                }
                channel.write(to: &writer)
            }
        }
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("bandChannelControl", "Band/Channel Entries Control", .bits(UInt64(control), digits: 2))
        ]
        switch entries {
        case .bands(let bands):
            fields.append(DecodedField("type", "Type", .named(0, "Band IDs")))
            fields.append(DecodedField("nonContiguousBandwidth", "Non-contiguous BW", .flag(nonContiguousBandwidth)))
            fields.append(DecodedField("numberOfEntries", "Number of Entries", .unsigned(UInt64(bands.count))))
            fields.append(DecodedField("bandIDs", "Band IDs", .list(bands.map(\.decodedValue))))
        case .channels(let channels):
            fields.append(DecodedField("type", "Type", .named(1, "Channel Entries")))
            fields.append(DecodedField("nonContiguousBandwidth", "Non-contiguous BW", .flag(nonContiguousBandwidth)))
            fields.append(DecodedField("numberOfEntries", "Number of Entries", .unsigned(UInt64(channels.count))))
            fields.append(
                DecodedField("channelEntries", "Channel Entries", .list(channels.map { .fields($0.decodedFields) }))
            )
        }
        return fields
    }
}

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

/// A Band ID of a band/channel entry list or ULW (nan-wire-reference.md 2.7: 1 Sub-1 GHz,
/// 2 2.4 GHz, 4 5 GHz, 7 6 GHz). An open set: other values are kept, named "Reserved".
public struct BandID: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let sub1GHz = Self(1)
    public static let band2_4GHz = Self(2)
    public static let band5GHz = Self(4)
    public static let band6GHz = Self(7)

    public var name: String {
        switch rawValue {
        case 1: "Sub-1 GHz"
        case 2: "2.4 GHz"
        case 4: "4.9 and 5 GHz"
        case 7: "6 GHz"
        default: "Reserved"
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(rawValue), name) }
}
