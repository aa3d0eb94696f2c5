import AwareWire

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
