import AwareCore
import AwareWire

extension OFDMRate {
    /// The OFDM rate a frame's ``TxRate`` names. Every clause 17 rate carries N_DBPS = 2 × its
    /// rate in 500 kb/s units (Table 17-4: 24 bits per 4 µs symbol at 6 Mb/s … 216 at 54 Mb/s).
    public init(_ rate: TxRate) {
        self.init(dataBitsPerSymbol: 2 * Int(rate.rawValue), radiotapRate: rate.rawValue)
    }

    /// The same rate as a ``TxRate``.
    public var txRate: TxRate { TxRate(rawValue: radiotapRate) }

    /// The mandatory OFDM rates, 6, 12 and 24 Mb/s (IEEE 802.11-2020 17.3.5.7), taken as the
    /// basic rate set of a NAN data link.
    public static let mandatoryRates: [OFDMRate] = [.mbps6, .mbps12, .mbps24]

    /// The rate of the ACK that answers a frame sent at this rate: the highest basic rate not
    /// above it (IEEE 802.11-2020 10.6.6.5.2), so 54 Mb/s is acknowledged at 24 Mb/s and
    /// 9 Mb/s at 6 Mb/s.
    public var controlResponseRate: OFDMRate {
        Self.mandatoryRates.last { $0.dataBitsPerSymbol <= dataBitsPerSymbol } ?? .mbps6
    }
}
