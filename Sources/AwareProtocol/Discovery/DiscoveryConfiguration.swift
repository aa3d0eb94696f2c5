import AwareCore
import AwareWire

/// What a ``DiscoveryEngine`` needs to know about its station.
public struct DiscoveryConfiguration: Hashable, Sendable {
    /// Own NMI: A2 of every SDF, and the address SRFs and unicast SDFs are checked against.
    public var address: MACAddress
    public var mode: DiscoveryMode
    /// USD only: how often unsolicited publishes and active subscribes are repeated. hostap's
    /// default announcement period is 100 ms (nan-wire-reference.md 1.5). In synchronized mode
    /// they are sent once per discovery window instead.
    public var announcementPeriod: Interval
    /// Peers below this RSSI are out of range for Discovery Range Limited services.
    public var rangeThresholdDBm: Int
    public var transmitPowerDBm: Int
    /// Also report publishes of a subscribed service that a filter or the range rejected, as
    /// results whose ``DiscoveryResult/outcome`` says why (a diagnosis aid for the runner).
    public var reportsRejectedPublishes: Bool

    public init(
        address: MACAddress,
        mode: DiscoveryMode = .usd,
        announcementPeriod: Interval = .milliseconds(100),
        rangeThresholdDBm: Int? = nil,
        transmitPowerDBm: Int = 20,
        reportsRejectedPublishes: Bool = false
    ) {
        self.address = address
        self.mode = mode
        self.announcementPeriod = announcementPeriod
        self.rangeThresholdDBm = rangeThresholdDBm ?? mode.defaultRangeThresholdDBm
        self.transmitPowerDBm = transmitPowerDBm
        self.reportsRejectedPublishes = reportsRejectedPublishes
    }
}
