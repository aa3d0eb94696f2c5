import AwareCore
import AwareWire
import Foundation

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

// MARK: - OFDMRate+TxRate

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

// MARK: - LinkRate

/// Picks the PHY rate for a link from the signal the peer's frames arrive with: the fastest
/// OFDM rate whose minimum receiver sensitivity the signal meets (IEEE 802.11-2020 Table
/// 17-18, 20 MHz channels), so a device can choose a data rate from the RSSI it measures.
public enum LinkRate {
    /// Each rate and the weakest input (dBm) at which a conforming receiver still achieves a
    /// packet error rate below 10 % (Table 17-18), slowest first.
    public static let minimumSensitivity: [(rate: OFDMRate, signalDBm: Double)] = [
        (.mbps6, -82),
        (.mbps9, -81),
        (.mbps12, -79),
        (.mbps18, -77),
        (.mbps24, -74),
        (.mbps36, -70),
        (.mbps48, -66),
        (.mbps54, -65),
    ]

    /// The fastest rate whose sensitivity plus `marginDB` the signal reaches; 6 Mb/s when
    /// none does (the basic rate is always tried).
    public static func select(signalDBm: Double, marginDB: Double = 0) -> OFDMRate {
        minimumSensitivity.last { signalDBm >= $0.signalDBm + marginDB }?.rate ?? .mbps6
    }
}

// MARK: - PathLossModel

/// How signal strength falls with distance on the simulated air: the log-distance path loss
/// model with optional log-normal shadowing (Rappaport, "Wireless Communications", 2nd ed.,
/// 4.9.1 and 4.9.2; the same form as ITU-R P.1238's indoor model):
///
///     PL(d) = PL(d0) + 10 · n · log10(d / d0) + X_σ      with d0 = 1 m
///
/// PL(d0) is free-space (Friis) loss at 1 m, 20·log10(f_MHz) − 27.55 dB: 40.2 dB at 2437 MHz
/// (channel 6), 47.6 dB at 5745 MHz (channel 149). The exponent n is 2 in free space and
/// about 3 indoors with walls and furniture (Rappaport Table 4.2 gives 1.6–3.3 for
/// buildings), the default here. X_σ is a zero-mean Gaussian in dB, drawn once per link
/// from the air's seed and the two stations' addresses, so it stays the same for the whole
/// run and in both directions. Closer than d0 the loss is PL(d0).
public struct PathLossModel: Hashable, Sendable {
    /// The path loss exponent n.
    public var exponent: Double
    /// Standard deviation of the per-link shadowing in dB; 0 turns shadowing off.
    public var shadowingSigmaDB: Double
    /// PL(d0) in dB when set; nil means free-space loss at 1 m for the frame's frequency.
    public var referenceLossDB: Double?

    public init(exponent: Double = 3.0, shadowingSigmaDB: Double = 0, referenceLossDB: Double? = nil) {
        self.exponent = exponent
        self.shadowingSigmaDB = max(0, shadowingSigmaDB)
        self.referenceLossDB = referenceLossDB
    }

    /// Indoors, n = 3, no shadowing.
    public static let indoor = PathLossModel()
    /// Free space, n = 2.
    public static let freeSpace = PathLossModel(exponent: 2)

    public static let referenceDistance = 1.0

    /// Free-space path loss at 1 m: 20·log10(f_MHz) − 27.55 dB (Friis, with d in metres and
    /// f in MHz).
    public static func freeSpaceLossAtOneMetre(frequencyMHz: Double) -> Double {
        20 * log10(frequencyMHz) - 27.55
    }

    /// Path loss in dB over `distance` metres at `frequencyMHz`, before shadowing.
    public func loss(distance: Double, frequencyMHz: Double) -> Double {
        let reference = referenceLossDB ?? Self.freeSpaceLossAtOneMetre(frequencyMHz: frequencyMHz)
        guard distance > Self.referenceDistance else { return reference }
        return reference + 10 * exponent * log10(distance / Self.referenceDistance)
    }

    /// Received power in dBm for `transmitPowerDBm` over `distance` (no shadowing).
    public func receivedPower(transmitPowerDBm: Double, distance: Double, frequencyMHz: Double) -> Double {
        transmitPowerDBm - loss(distance: distance, frequencyMHz: frequencyMHz)
    }
}

// MARK: - ContentionParameters

/// The CSMA/CA (DCF) timing the simulated air applies on every channel: OFDM PHY
/// characteristics of IEEE 802.11-2020 Table 17-21 and the backoff rules of 10.3.
public struct ContentionParameters: Hashable, Sendable {
    /// aSlotTime: 9 µs.
    public var slotTime: Interval
    /// aSIFSTime: 16 µs, the gap before an ACK.
    public var sifs: Interval
    /// DIFS = aSIFSTime + 2 × aSlotTime = 34 µs (10.3.2.3.5): the idle time a station waits
    /// before counting down its backoff.
    public var difs: Interval
    /// How long a sender waits for an ACK to start: aSIFSTime + aSlotTime +
    /// aRxPHYStartDelay (20 µs) = 45 µs (10.3.2.9).
    public var ackTimeout: Interval
    /// aCWmin: the first contention window, 15 slots.
    public var cwMin: Int
    /// aCWmax: the window stops doubling at 1023 slots.
    public var cwMax: Int

    public init(
        slotTime: Interval = .microseconds(9),
        sifs: Interval = .microseconds(16),
        difs: Interval = .microseconds(34),
        ackTimeout: Interval = .microseconds(45),
        cwMin: Int = 15,
        cwMax: Int = 1023
    ) {
        self.slotTime = slotTime
        self.sifs = sifs
        self.difs = difs
        self.ackTimeout = ackTimeout
        self.cwMin = max(0, cwMin)
        self.cwMax = max(self.cwMin, cwMax)
    }

    /// The window after a failed attempt: CW ← min(2·(CW + 1) − 1, CWmax) (10.3.3).
    public func nextWindow(after window: Int) -> Int {
        min(2 * (window + 1) - 1, cwMax)
    }
}
