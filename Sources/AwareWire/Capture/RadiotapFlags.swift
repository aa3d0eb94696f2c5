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
