import AwareCore
import AwareWire

/// Parameters of a reliable flow. The timeout rules are RFC 6298's, with its bounds relaxed
/// for a one-hop link: RFC 6298 2.4 rounds RTO up to 1 s for the Internet, while a NAN data
/// path's round trip is milliseconds (or a discovery-window interval, 524 ms, at worst).
public struct ReliableConfiguration: Hashable, Sendable {
    /// Segments sent and not yet acknowledged, at most.
    public var window: Int
    /// Segments the receiver holds ahead of a gap, at most; later ones are dropped and resent.
    public var receiveBuffer: Int
    /// RTO before any round trip is measured (RFC 6298 2.1).
    public var initialTimeout: Interval
    public var minimumTimeout: Interval
    public var maximumTimeout: Interval
    /// G in RFC 6298 2.3: the floor of the variance term.
    public var clockGranularity: Interval
    /// Timeouts in a row, without an acknowledgement in between, before the link is declared lost.
    public var maximumRetransmissions: Int

    public init(
        window: Int = 32,
        receiveBuffer: Int = 64,
        initialTimeout: Interval = .seconds(1),
        minimumTimeout: Interval = .milliseconds(50),
        maximumTimeout: Interval = .seconds(8),
        clockGranularity: Interval = .milliseconds(1),
        maximumRetransmissions: Int = 6
    ) {
        self.window = max(1, window)
        self.receiveBuffer = max(0, receiveBuffer)
        self.initialTimeout = initialTimeout
        self.minimumTimeout = minimumTimeout
        self.maximumTimeout = maximumTimeout
        self.clockGranularity = clockGranularity
        self.maximumRetransmissions = max(0, maximumRetransmissions)
    }

    /// For bulk transfers (files): a bulk schedule leaves up to 96 TU between a segment and its
    /// acknowledgement, so a window of 32 segments would cap a transfer at a quarter of the data
    /// path's capacity (`aware-bench datapath` measured 0.25); 256 segments in flight keep the
    /// committed windows full.
    public static let bulk = ReliableConfiguration(window: 256, receiveBuffer: 512)
}
