/// Whether a frame sent with `NL80211_CMD_FRAME` was acknowledged
/// (`NL80211_CMD_FRAME_TX_STATUS`, `nl80211_frame_tx_status` in `net/wireless/nl80211.c`):
/// the cookie of the `FRAME` reply, the frame, and the `ACK` flag when the peer acknowledged.
public struct NL80211FrameTransmitStatus: Hashable, Sendable {
    public var cookie: UInt64
    public var acknowledged: Bool
    public var frame: [UInt8]

    public init(cookie: UInt64, acknowledged: Bool, frame: [UInt8]) {
        self.cookie = cookie
        self.acknowledged = acknowledged
        self.frame = frame
    }

    private typealias Attr = NL80211Constants.Attribute

    init(event message: GenericNetlinkMessage) throws(RadioError) {
        cookie = try message.required(Attr.cookie).u64Value()
        frame = message.attribute(Attr.frame.rawValue)?.payload ?? []
        guard let ack = message.attribute(Attr.ack.rawValue) else {
            acknowledged = false
            return
        }
        guard ack.payload.isEmpty else {
            throw RadioError.attributeSize(type: Attr.ack.rawValue, expected: 0, actual: ack.payload.count)
        }
        acknowledged = true
    }
}
