/// A PHY rate for one frame, in units of 500 kb/s as radiotap's Rate field counts them
/// (radiotap.org "Rate"): 12 = 6 Mb/s, 108 = 54 Mb/s.
///
/// The OFDM rates of IEEE 802.11-2020 clause 17 (Table 17-4) are the named presets; the
/// simulated air computes airtime from them.
public struct TxRate: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The rate in 500 kb/s units.
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let mbps6 = TxRate(rawValue: 12)
    public static let mbps9 = TxRate(rawValue: 18)
    public static let mbps12 = TxRate(rawValue: 24)
    public static let mbps18 = TxRate(rawValue: 36)
    public static let mbps24 = TxRate(rawValue: 48)
    public static let mbps36 = TxRate(rawValue: 72)
    public static let mbps48 = TxRate(rawValue: 96)
    public static let mbps54 = TxRate(rawValue: 108)

    /// The eight OFDM rates of a 20 MHz channel, slowest first.
    public static let ofdmRates: [TxRate] = [.mbps6, .mbps9, .mbps12, .mbps18, .mbps24, .mbps36, .mbps48, .mbps54]

    public var megabitsPerSecond: Double { Double(rawValue) / 2 }

    public static func < (lhs: TxRate, rhs: TxRate) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        rawValue % 2 == 0 ? "\(rawValue / 2) Mb/s" : "\(megabitsPerSecond) Mb/s"
    }
}
