import AwareWire

extension NANChannel {
    /// The first channels and spacing of the operating classes a NAN data channel uses (IEEE
    /// 802.11 Annex E global classes): a Channel Entry's bitmap bit k is the k-th channel of
    /// the class (nan-wire-reference.md 2.7).
    private static let operatingClasses: [UInt8: (first: UInt8, spacing: UInt8, count: UInt8)] = [
        81: (1, 1, 13), 115: (36, 4, 4), 118: (52, 4, 4), 121: (100, 4, 12), 124: (149, 4, 4), 125: (149, 4, 8),
    ]

    /// The lowest channel a 20 MHz Channel Entry names; nil for other classes or an empty bitmap.
    public init?(channelEntry: ChannelEntry) {
        guard let layout = Self.operatingClasses[channelEntry.operatingClass] else { return nil }
        guard let bit = (0..<Int(layout.count)).first(where: { channelEntry.channelBitmap & (1 << $0) != 0 }) else {
            return nil
        }
        let number = Int(layout.first) + bit * Int(layout.spacing)
        let base = channelEntry.operatingClass == 81 ? 2407 : 5000
        self.init(
            number: UInt8(truncatingIfNeeded: number),
            frequencyMHz: UInt16(truncatingIfNeeded: base + 5 * number),
            operatingClass: channelEntry.operatingClass
        )
    }

    /// This channel as a 20 MHz Channel Entry (primary channel bitmap 0, as hostap writes it).
    public var channelEntry: ChannelEntry {
        var bitmap: UInt16 = 0
        if let layout = Self.operatingClasses[operatingClass], number >= layout.first {
            let index = Int(number - layout.first) / Int(layout.spacing)
            if index < Int(layout.count) { bitmap = 1 << UInt16(index) }
        }
        return ChannelEntry(operatingClass: operatingClass, channelBitmap: bitmap, primaryChannelBitmap: 0)
    }
}
