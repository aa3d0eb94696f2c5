import AwareCore
import AwareWire

/// The retransmission timeout estimator of RFC 6298 section 2, with the back-off of 5.5.
public struct RetransmissionTimeout: Hashable, Sendable {
    public private(set) var smoothedRTT: Interval?
    public private(set) var rttVariation: Interval?
    /// The current RTO, bounded by the configuration.
    public private(set) var timeout: Interval
    private let minimum: Interval
    private let maximum: Interval
    private let granularity: Interval

    public init(configuration: ReliableConfiguration) {
        minimum = configuration.minimumTimeout
        maximum = configuration.maximumTimeout
        granularity = configuration.clockGranularity
        timeout = Self.clamp(configuration.initialTimeout, minimum, maximum)
    }

    /// A round-trip measurement R of a segment sent once (Karn: never of a retransmission).
    public mutating func sample(_ rtt: Interval) {
        let r = max(rtt, .zero)
        if let srtt = smoothedRTT, let rttvar = rttVariation {
            // 2.3: RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|, then SRTT <- 7/8 SRTT + 1/8 R'.
            // Both are non-negative, so the difference cannot overflow.
            let difference = abs(srtt.nanoseconds - r.nanoseconds)
            rttVariation = Interval(nanoseconds: (3 * rttvar.nanoseconds + difference) / 4)
            smoothedRTT = Interval(nanoseconds: (7 * srtt.nanoseconds + r.nanoseconds) / 8)
        } else {
            // 2.2: SRTT <- R, RTTVAR <- R/2.
            smoothedRTT = r
            rttVariation = Interval(nanoseconds: r.nanoseconds / 2)
        }
        if let srtt = smoothedRTT, let rttvar = rttVariation {
            // 2.2/2.3: RTO <- SRTT + max(G, K*RTTVAR), K = 4.
            timeout = Self.clamp(srtt + max(granularity, rttvar * 4), minimum, maximum)
        }
    }

    /// 5.5: after a timeout, RTO <- RTO * 2 (up to the maximum).
    public mutating func backOff() {
        timeout = Self.clamp(timeout * 2, minimum, maximum)
    }

    private static func clamp(_ value: Interval, _ low: Interval, _ high: Interval) -> Interval {
        min(max(value, low), high)
    }
}
