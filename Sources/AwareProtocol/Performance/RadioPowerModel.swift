/// How much power the radio draws while listening and while transmitting, for energy estimates.
///
/// The default is a small Wi-Fi module's datasheet, because the accessories this bench emulates
/// are of that kind: ESP32-S2-WROOM datasheet v1.1, Table 7 "Current Consumption Depending on RF
/// Modes", 3.3 V supply: RX 802.11b/g/n 20 MHz 63 mA; TX 802.11g 54 Mbps at 15 dBm 145 mA
/// (average). Listening for a frame costs the same as receiving one (the receive chain is on
/// either way), and the radio draws nothing while the schedule has it off: sleep currents are
/// microamps and the CPU is not the radio's to count.
public struct RadioPowerModel: Hashable, Sendable {
    public var supplyVolts: Double
    public var listenMilliamps: Double
    public var transmitMilliamps: Double

    public init(supplyVolts: Double, listenMilliamps: Double, transmitMilliamps: Double) {
        self.supplyVolts = supplyVolts
        self.listenMilliamps = listenMilliamps
        self.transmitMilliamps = transmitMilliamps
    }

    /// ESP32-S2-WROOM datasheet v1.1, Table 7.
    public static let esp32S2 = RadioPowerModel(supplyVolts: 3.3, listenMilliamps: 63, transmitMilliamps: 145)

    public var listenWatts: Double { supplyVolts * listenMilliamps / 1000 }
    public var transmitWatts: Double { supplyVolts * transmitMilliamps / 1000 }
}
