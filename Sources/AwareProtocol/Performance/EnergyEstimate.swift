/// Radio energy over a run: on-time is the run's duration times the schedule's duty cycle;
/// of that, transmit time is the octets sent at the PHY rate (payload airtime only: preambles
/// and acknowledgements are left out, so this is a lower bound), and the rest is listening.
public struct EnergyEstimate: Hashable, Sendable {
    public var radioOnSeconds: Double
    public var transmitSeconds: Double
    public var joules: Double
    public var model: RadioPowerModel

    public init(
        durationSeconds: Double,
        dutyCycle: Double,
        transmittedBytes: UInt64,
        phyRateMbps: Double?,
        model: RadioPowerModel
    ) {
        let onTime = max(0, durationSeconds) * min(max(dutyCycle, 0), 1)
        let airtime = phyRateMbps.map { $0 > 0 ? Double(transmittedBytes) * 8 / ($0 * 1e6) : 0 } ?? 0
        radioOnSeconds = onTime
        transmitSeconds = min(airtime, onTime)
        joules = transmitSeconds * model.transmitWatts + (onTime - transmitSeconds) * model.listenWatts
        self.model = model
    }
}
