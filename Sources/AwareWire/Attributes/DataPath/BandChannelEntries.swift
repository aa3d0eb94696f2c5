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
