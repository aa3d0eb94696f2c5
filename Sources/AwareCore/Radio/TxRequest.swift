/// A frame a protocol machine asks the radio to send.
public struct TxRequest: Hashable, Sendable {
    /// The 802.11 frame from Frame Control on, without FCS.
    public var frame: [UInt8]
    public var channel: NANChannel
    /// Transmit power in dBm.
    public var powerDBm: Int
    /// Echoed in the TX status, so the machine can tell which frame was acknowledged.
    public var cookie: UInt64
    /// The PHY rate of this frame; nil sends it at the air's default rate (the 6 Mb/s basic
    /// rate that NAN management frames use).
    public var rate: TxRate?
    /// The EDCA parameters of the frame's access category; nil contends as DCF does (DIFS
    /// and the air's own CWmin/CWmax).
    public var access: ChannelAccess?

    public init(
        frame: [UInt8],
        channel: NANChannel,
        powerDBm: Int = 20,
        cookie: UInt64 = 0,
        rate: TxRate? = nil,
        access: ChannelAccess? = nil
    ) {
        self.frame = frame
        self.channel = channel
        self.powerDBm = powerDBm
        self.cookie = cookie
        self.rate = rate
        self.access = access
    }
}

/// Whether a unicast frame was acknowledged by its receiver (group-addressed frames are
/// never acknowledged and report `acknowledged: false`).
public struct TxStatus: Hashable, Sendable {
    public var cookie: UInt64
    public var acknowledged: Bool
    public var timestamp: Instant

    public init(cookie: UInt64, acknowledged: Bool, timestamp: Instant) {
        self.cookie = cookie
        self.acknowledged = acknowledged
        self.timestamp = timestamp
    }
}
