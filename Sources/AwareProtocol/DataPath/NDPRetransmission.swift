import AwareCore
import AwareWire

/// How often a machine sends its frame again while it waits (every second, three
/// transmissions in all, then a timeout: this bench's choice, the reference gives no values).
public struct NDPRetransmission: Hashable, Sendable {
    public var interval: Interval
    public var maxTransmissions: Int

    public init(interval: Interval = .seconds(1), maxTransmissions: Int = 3) {
        self.interval = interval
        self.maxTransmissions = maxTransmissions
    }

    /// How long a machine waits for an answer in all: every transmission's interval.
    public var timeLimit: Interval { interval * Int64(maxTransmissions) }
}
