import AwareRadio

/// The link between the accessory and a phone at the origin: the RSSI either end measures and
/// whether it is above the receiver's sensitivity. It follows the simulated air's indoor
/// log-distance model on channel 6, so a distance means the same on every air.
public struct AccessoryLinkBudget: Hashable, Sendable {
    /// What a phone-class 2.4 GHz radio transmits, in dBm (the simulated air's default).
    public static let defaultTransmitPowerDBm = 20
    /// The minimum input level for 6 Mb/s OFDM, the rate NAN management frames use
    /// (IEEE 802.11-2020 Table 17-18): below it nothing is heard.
    public static let sensitivityDBm = LinkRate.minimumSensitivity.first?.signalDBm ?? -82

    public var distance: Double
    public var transmitPowerDBm: Int

    public init(distance: Double, transmitPowerDBm: Int) {
        self.distance = distance
        self.transmitPowerDBm = transmitPowerDBm
    }

    public var rssiDBm: Int {
        Int(
            PathLossModel.indoor.receivedPower(
                transmitPowerDBm: Double(transmitPowerDBm),
                distance: max(1, distance),
                frequencyMHz: 2437
            )
            .rounded()
        )
    }

    public var inRange: Bool { Double(rssiDBm) >= Self.sensitivityDBm }
}
