import AwareCore
import AwareWire

/// An OFDM PHY rate of IEEE 802.11 clause 17 (20 MHz channels), and the airtime of a frame
/// sent at it.
///
/// A PPDU is 16 µs of preamble (short and long training), a 4 µs SIGNAL symbol, then DATA
/// symbols of 4 µs each carrying SERVICE (16 bits), the PSDU (the MPDU with its 4-octet
/// FCS), 6 tail bits and pad bits up to a whole symbol (IEEE 802.11-2020 17.3.2.3,
/// 17.4.3: TXTIME = T_PREAMBLE + T_SIGNAL + T_SYM × ⌈(16 + 8·LENGTH + 6) / N_DBPS⌉).
/// NAN management frames (beacons, SDFs, NAFs) go out at the basic rate, 6 Mb/s.
///
/// The 2.4 GHz ERP-OFDM PHY (clause 18) adds a 6 µs signal extension after each PPDU and
/// shortens SIFS to 10 µs; the two cancel out for the SIFS-separated ACK, and the simulated
/// air uses the clause 17 figures on both bands.
public struct OFDMRate: Hashable, Sendable, CustomStringConvertible {
    /// Data bits per OFDM symbol (N_DBPS).
    public var dataBitsPerSymbol: Int
    /// The rate in units of 500 kb/s, as radiotap's Rate field counts.
    public var radiotapRate: UInt8

    public init(dataBitsPerSymbol: Int, radiotapRate: UInt8) {
        self.dataBitsPerSymbol = max(1, dataBitsPerSymbol)
        self.radiotapRate = radiotapRate
    }

    // IEEE 802.11-2020 Table 17-4 (modulation-dependent parameters), N_DBPS at 20 MHz.
    public static let mbps6 = OFDMRate(dataBitsPerSymbol: 24, radiotapRate: 12)
    public static let mbps9 = OFDMRate(dataBitsPerSymbol: 36, radiotapRate: 18)
    public static let mbps12 = OFDMRate(dataBitsPerSymbol: 48, radiotapRate: 24)
    public static let mbps18 = OFDMRate(dataBitsPerSymbol: 72, radiotapRate: 36)
    public static let mbps24 = OFDMRate(dataBitsPerSymbol: 96, radiotapRate: 48)
    public static let mbps36 = OFDMRate(dataBitsPerSymbol: 144, radiotapRate: 72)
    public static let mbps48 = OFDMRate(dataBitsPerSymbol: 192, radiotapRate: 96)
    public static let mbps54 = OFDMRate(dataBitsPerSymbol: 216, radiotapRate: 108)

    /// Preamble (16 µs) plus SIGNAL (4 µs).
    public static let preambleAndHeader = Interval.microseconds(20)
    public static let symbolDuration = Interval.microseconds(4)
    /// The FCS the PHY carries after every MPDU; frames in AwareBench are kept without it.
    public static let fcsLength = 4

    /// Megabits per second: N_DBPS bits every 4 µs.
    public var megabitsPerSecond: Double { Double(dataBitsPerSymbol) / 4 }

    /// Airtime of an MPDU of `frameLength` octets from Frame Control on, without FCS (the
    /// PHY adds the 4-octet FCS).
    public func airtime(frameLength: Int) -> Interval {
        airtime(psduLength: max(0, frameLength) + Self.fcsLength)
    }

    /// Airtime of a PSDU of `psduLength` octets, FCS included.
    public func airtime(psduLength: Int) -> Interval {
        let bits = 16 + 8 * max(0, psduLength) + 6
        let symbols = (bits + dataBitsPerSymbol - 1) / dataBitsPerSymbol
        return Self.preambleAndHeader + Self.symbolDuration * Int64(symbols)
    }

    public var description: String {
        let rate = megabitsPerSecond
        return rate == rate.rounded() ? "\(Int(rate)) Mb/s OFDM" : "\(rate) Mb/s OFDM"
    }
}
