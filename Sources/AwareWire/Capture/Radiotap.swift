/// A radiotap header (radiotap.org): `it_version (1) = 0 | it_pad (1) | it_len (2, LE) |
/// it_present (4, LE) [, more present words while b31 is set] | fields`, each field aligned
/// to its natural size counted from the header's first octet.
///
/// The parser decodes the fields of the first present word in bit order and stops at the
/// first bit whose field it does not know (its size and alignment would be a guess), yet
/// always consumes exactly `it_len` octets. The header's octets are kept, so a parsed header
/// writes back unchanged; a built one is written canonically.
public struct Radiotap: Hashable, Sendable, WireCodable, WireDescribable {
    public static let structureName = "radiotap header"

    /// TSFT (bit 0): the MAC timestamp in microseconds.
    public let tsft: UInt64?
    /// Flags (bit 1).
    public let flags: RadiotapFlags?
    /// Rate (bit 2) in units of 500 kb/s.
    public let rate: UInt8?
    /// Channel (bit 3).
    public let channel: RadiotapChannel?
    /// dBm Antenna Signal (bit 5).
    public let antennaSignal: Int8?
    /// The first present word.
    public let present: UInt32
    /// The header's octets, `it_len` of them.
    public let octets: [UInt8]

    /// Alignment and size of the fields of presence bits 0-22 (radiotap.org defined fields).
    private static let fieldLayout: [(alignment: Int, size: Int)] = [
        (8, 8), (1, 1), (1, 1), (2, 4), (1, 2), (1, 1), (1, 1), (2, 2), (2, 2), (2, 2), (1, 1), (1, 1),
        (1, 1), (1, 1), (2, 2), (2, 2), (1, 1), (1, 1), (4, 8), (1, 3), (4, 8), (2, 12), (8, 12),
    ]

    /// Builds a header with the given fields, in presence-bit order and aligned.
    public init(
        tsft: UInt64? = nil,
        flags: RadiotapFlags? = nil,
        rate: UInt8? = nil,
        channel: RadiotapChannel? = nil,
        antennaSignal: Int8? = nil
    ) {
        self.tsft = tsft
        self.flags = flags
        self.rate = rate
        self.channel = channel
        self.antennaSignal = antennaSignal
        var present: UInt32 = 0
        var fields = WireWriter()
        func align(_ alignment: Int) {
            while (8 + fields.count) % alignment != 0 { fields.write(UInt8(0)) }
        }
        if let tsft {
            present |= 1 << 0
            align(8)
            fields.writeUInt64LE(tsft)
        }
        if let flags {
            present |= 1 << 1
            fields.write(flags.rawValue)
        }
        if let rate {
            present |= 1 << 2
            fields.write(rate)
        }
        if let channel {
            present |= 1 << 3
            align(2)
            fields.writeUInt16LE(channel.frequency)
            fields.writeUInt16LE(channel.flags)
        }
        if let antennaSignal {
            present |= 1 << 5
            fields.write(UInt8(bitPattern: antennaSignal))
        }
        self.present = present
        var writer = WireWriter()
        writer.write(UInt8(0))
        writer.write(UInt8(0))
        writer.writeUInt16LE(UInt16(truncatingIfNeeded: 8 + fields.count))
        writer.writeUInt32LE(present)
        writer.write(fields.bytes)
        octets = writer.bytes
    }

    public init(from reader: inout WireReader) throws(WireError) {
        let start = reader.offset
        reader.structure = Self.structureName
        let version = try reader.readUInt8("it_version")
        guard version == 0 else {
            throw reader.error(.invalidValue("it_version \(version) is not 0"), field: "it_version", at: start)
        }
        _ = try reader.readUInt8("it_pad")
        let length = Int(try reader.readUInt16LE("it_len"))
        guard length >= 8 else {
            throw reader.error(
                .invalidValue("it_len \(length) is shorter than the 8-octet header"),
                field: "it_len",
                at: start + 2
            )
        }
        // it_len counts from the header's first octet; 4 of them are already read.
        guard length - 4 <= reader.remaining else {
            throw reader.error(
                .lengthMismatch(declared: length, actual: reader.remaining + 4),
                field: "it_len",
                at: start + 2
            )
        }
        var header = try reader.subReader(length: length - 4, field: "it_len")
        octets = Array(reader.bytes[(reader.origin + start)..<(reader.origin + start + length)])
        present = try header.readUInt32LE("it_present")
        var word = present
        while word & 0x8000_0000 != 0 { word = try header.readUInt32LE("it_present (extended)") }

        var values: [Int: [UInt8]] = [:]
        for bit in 0..<32 where present & (1 << UInt32(bit)) != 0 {
            guard bit < Self.fieldLayout.count else { break }
            let (alignment, size) = Self.fieldLayout[bit]
            let misalignment = (header.offset - start) % alignment
            if misalignment != 0 { _ = try header.readBytes(alignment - misalignment, "padding") }
            values[bit] = try header.readBytes(size, Self.fieldName(bit))
        }
        tsft = values[0].map { Self.littleEndian($0) }
        flags = values[1].map { RadiotapFlags(rawValue: $0[0]) }
        rate = values[2].map { $0[0] }
        channel = values[3].map {
            RadiotapChannel(
                frequency: UInt16(truncatingIfNeeded: Self.littleEndian($0[0..<2])),
                flags: UInt16(truncatingIfNeeded: Self.littleEndian($0[2..<4]))
            )
        }
        antennaSignal = values[5].map { Int8(bitPattern: $0[0]) }
    }

    private static func littleEndian(_ octets: some Collection<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for (index, octet) in octets.enumerated() { value |= UInt64(octet) << UInt64(8 * index) }
        return value
    }

    private static func fieldName(_ bit: Int) -> String {
        switch bit {
        case 0: "TSFT"
        case 1: "Flags"
        case 2: "Rate"
        case 3: "Channel"
        case 5: "dBm Antenna Signal"
        default: "field \(bit)"
        }
    }

    public func write(to writer: inout WireWriter) { writer.write(octets) }

    public var length: Int { octets.count }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("length", "it_len", .unsigned(UInt64(octets.count))),
            DecodedField("present", "it_present", .bits(UInt64(present), digits: 8)),
        ]
        if let tsft { fields.append(DecodedField("tsft", "TSFT (µs)", .unsigned(tsft))) }
        if let flags { fields.append(DecodedField("flags", "Flags", .fields(flags.decodedFields))) }
        if let rate { fields.append(DecodedField("rate", "Rate (500 kb/s)", .unsigned(UInt64(rate)))) }
        if let channel { fields.append(DecodedField("channel", "Channel", .fields(channel.decodedFields))) }
        if let antennaSignal {
            fields.append(DecodedField("antennaSignal", "dBm Antenna Signal", .text("\(antennaSignal) dBm")))
        }
        return fields
    }
}

/// The radiotap Channel field (presence bit 3): frequency in MHz (LE16) and channel
/// flags (LE16).
public struct RadiotapChannel: Hashable, Sendable, WireDescribable {
    public var frequency: UInt16
    public var flags: UInt16

    public init(frequency: UInt16, flags: UInt16) {
        self.frequency = frequency
        self.flags = flags
    }

    public static let cckFlag: UInt16 = 0x0020
    public static let ofdmFlag: UInt16 = 0x0040
    public static let band2GHzFlag: UInt16 = 0x0080
    public static let band5GHzFlag: UInt16 = 0x0100

    /// An OFDM channel at `frequency`, with the 2.4 or 5 GHz band flag set from the frequency
    /// (NAN discovery runs on 2437 MHz and 5745 / 5220 MHz, nan-wire-reference.md 1.4).
    public init(ofdmAt frequency: UInt16) {
        var flags = Self.ofdmFlag
        if (2400..<2500).contains(frequency) { flags |= Self.band2GHzFlag }
        if (4900..<5925).contains(frequency) { flags |= Self.band5GHzFlag }
        self.init(frequency: frequency, flags: flags)
    }

    public var is2GHz: Bool { flags & Self.band2GHzFlag != 0 }
    public var is5GHz: Bool { flags & Self.band5GHzFlag != 0 }
    public var isOFDM: Bool { flags & Self.ofdmFlag != 0 }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("frequency", "Frequency (MHz)", .unsigned(UInt64(frequency))),
            DecodedField("channelFlags", "Channel Flags", .bits(UInt64(flags), digits: 4)),
            DecodedField("ofdm", "OFDM", .flag(isOFDM)),
            DecodedField("band2GHz", "2 GHz", .flag(is2GHz)),
            DecodedField("band5GHz", "5 GHz", .flag(is5GHz)),
        ]
    }
}

/// The radiotap Flags field (presence bit 1, one octet).
public struct RadiotapFlags: Hashable, Sendable, WireDescribable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public var cfp: Bool { rawValue & 0x01 != 0 }
    public var shortPreamble: Bool { rawValue & 0x02 != 0 }
    public var wep: Bool { rawValue & 0x04 != 0 }
    public var fragmentation: Bool { rawValue & 0x08 != 0 }
    /// The frame ends with its 4-octet FCS.
    public var fcsAtEnd: Bool { rawValue & 0x10 != 0 }
    public var dataPad: Bool { rawValue & 0x20 != 0 }
    public var badFCS: Bool { rawValue & 0x40 != 0 }
    public var shortGuardInterval: Bool { rawValue & 0x80 != 0 }

    public static let fcsAtEndBit: UInt8 = 0x10

    public var decodedFields: [DecodedField] {
        [
            DecodedField("flags", "Flags", .bits(UInt64(rawValue), digits: 2)),
            DecodedField("shortPreamble", "Short Preamble", .flag(shortPreamble)),
            DecodedField("wep", "WEP", .flag(wep)),
            DecodedField("fragmentation", "Fragmentation", .flag(fragmentation)),
            DecodedField("fcsAtEnd", "FCS at End", .flag(fcsAtEnd)),
            DecodedField("dataPad", "Data Pad", .flag(dataPad)),
            DecodedField("badFCS", "Bad FCS", .flag(badFCS)),
            DecodedField("shortGuardInterval", "Short GI", .flag(shortGuardInterval)),
        ]
    }
}
