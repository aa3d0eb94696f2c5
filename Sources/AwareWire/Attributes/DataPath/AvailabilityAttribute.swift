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

/// One Availability Entry of a NAN Availability attribute (nan-wire-reference.md 2.7):
/// Length (2, LE) | Entry Control (2, LE) | [Time Bitmap Control | Length | Bitmap] |
/// Band/Channel Entries List.
///
/// Entry Control: b0-2 Type (b0 Committed, b1 Potential, b2 Conditional), b3-4 Usage
/// Preference, b5-7 Utilization (0..5, 7 = unknown), b8-11 Rx NSS, b12 Time Bitmap
/// Present, b13-15 reserved. The raw field is kept (reserved bits survive); b12 is
/// written from whether ``timeBitmap`` is set.
public struct AvailabilityEntry: Hashable, Sendable, WireCodable, WireDescribable {
    public var entryControl: UInt16
    public var timeBitmap: TimeBitmap?
    /// The band/channel list. hostap's minimum entry length is 2 (control only), so an
    /// entry that ends after the control or time bitmap has none.
    public var bandChannelEntries: BandChannelEntries?

    static let timeBitmapPresentBit: UInt16 = 0x1000

    public init(entryControl: UInt16, timeBitmap: TimeBitmap?, bandChannelEntries: BandChannelEntries?) {
        self.entryControl =
            (entryControl & ~Self.timeBitmapPresentBit) | (timeBitmap == nil ? 0 : Self.timeBitmapPresentBit)
        self.timeBitmap = timeBitmap
        self.bandChannelEntries = bandChannelEntries
    }

    /// - Parameters: usagePreference 0...3, utilization 0...7, rxNSS 0...15; higher bits are dropped.
    public init(
        committed: Bool = false,
        potential: Bool = false,
        conditional: Bool = false,
        usagePreference: UInt8 = 0,
        utilization: UInt8 = 0,
        rxNSS: UInt8 = 0,
        timeBitmap: TimeBitmap? = nil,
        bandChannelEntries: BandChannelEntries?
    ) {
        var control: UInt16 = (committed ? 0x01 : 0) | (potential ? 0x02 : 0) | (conditional ? 0x04 : 0)
        control |= UInt16(usagePreference & 0x03) << 3
        control |= UInt16(utilization & 0x07) << 5
        control |= UInt16(rxNSS & 0x0F) << 8
        self.init(entryControl: control, timeBitmap: timeBitmap, bandChannelEntries: bandChannelEntries)
    }

    public var isCommitted: Bool { entryControl & 0x01 != 0 }
    public var isPotential: Bool { entryControl & 0x02 != 0 }
    public var isConditional: Bool { entryControl & 0x04 != 0 }
    public var usagePreference: UInt8 { UInt8(truncatingIfNeeded: entryControl >> 3) & 0x03 }
    /// 0...5, 7 = unknown, 6 reserved.
    public var utilization: UInt8 { UInt8(truncatingIfNeeded: entryControl >> 5) & 0x07 }
    public var rxNSS: UInt8 { UInt8(truncatingIfNeeded: entryControl >> 8) & 0x0F }
    public var timeBitmapPresent: Bool { entryControl & Self.timeBitmapPresentBit != 0 }

    public init(from reader: inout WireReader) throws(WireError) {
        let length = Int(try reader.readUInt16LE("Availability Entry Length"))
        var entry = try reader.subReader(length: length, field: "Availability Entry Length")
        entryControl = try entry.readUInt16LE("Entry Control")
        timeBitmap = entryControl & Self.timeBitmapPresentBit != 0 ? try TimeBitmap(from: &entry) : nil
        bandChannelEntries = entry.isAtEnd ? nil : try BandChannelEntries(from: &entry)
        try entry.expectEnd()
    }

    public func write(to writer: inout WireWriter) {
        writer.withLength16LE { entry in
            let presence = timeBitmap == nil ? 0 : Self.timeBitmapPresentBit
            entry.writeUInt16LE((entryControl & ~Self.timeBitmapPresentBit) | presence)
            timeBitmap?.write(to: &entry)
            bandChannelEntries?.write(to: &entry)
        }
    }

    public var decodedFields: [DecodedField] {
        let utilizationName =
            switch utilization {
            case 7: "Unknown"
            case 6: "Reserved"
            default: "\(utilization)"
            }
        var fields = [
            DecodedField("entryControl", "Entry Control", .bits(UInt64(entryControl), digits: 4)),
            DecodedField("committed", "Committed", .flag(isCommitted)),
            DecodedField("potential", "Potential", .flag(isPotential)),
            DecodedField("conditional", "Conditional", .flag(isConditional)),
            DecodedField("usagePreference", "Usage Preference", .unsigned(UInt64(usagePreference))),
            DecodedField("utilization", "Utilization", .named(UInt64(utilization), utilizationName)),
            DecodedField("rxNSS", "Rx NSS", .unsigned(UInt64(rxNSS))),
            DecodedField("timeBitmapPresent", "Time Bitmap Present", .flag(timeBitmapPresent)),
        ]
        if let timeBitmap {
            fields.append(DecodedField("timeBitmap", "Time Bitmap", .fields(timeBitmap.decodedFields)))
        }
        if let bandChannelEntries {
            fields.append(
                DecodedField("bandChannelEntries", "Band/Channel Entries", .fields(bandChannelEntries.decodedFields))
            )
        }
        return fields
    }
}
