/// What the radio says about a received frame.
public struct RxInfo: Hashable, Sendable {
    public var channel: NANChannel
    /// Received signal strength in dBm.
    public var rssiDBm: Int
    /// When the last octet arrived.
    public var timestamp: Instant

    public init(channel: NANChannel, rssiDBm: Int, timestamp: Instant) {
        self.channel = channel
        self.rssiDBm = rssiDBm
        self.timestamp = timestamp
    }
}
