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
