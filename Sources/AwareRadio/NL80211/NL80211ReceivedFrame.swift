/// A management frame the kernel passed up because this socket registered for it
/// (`NL80211_CMD_FRAME` event, `nl80211_send_mgmt` in `net/wireless/nl80211.c`).
public struct NL80211ReceivedFrame: Hashable, Sendable {
    /// The 802.11 frame from frame control on, without FCS.
    public var frame: [UInt8]
    public var frequencyMHz: UInt32
    /// `NL80211_ATTR_RX_SIGNAL_DBM`, when the driver reports one.
    public var signalDBm: Int?

    public init(frame: [UInt8], frequencyMHz: UInt32, signalDBm: Int?) {
        self.frame = frame
        self.frequencyMHz = frequencyMHz
        self.signalDBm = signalDBm
    }

    private typealias Attr = NL80211Constants.Attribute

    init(event message: GenericNetlinkMessage) throws(RadioError) {
        frame = try message.required(Attr.frame).payload
        frequencyMHz = try message.required(Attr.wiphyFrequency).u32Value()
        // The kernel puts the signal as a u32 holding an s32 (`nla_put_u32(..., sig_dbm)`).
        signalDBm = try message.attribute(Attr.receiveSignalDBm.rawValue).map { (attribute) throws(RadioError) in
            Int(Int32(bitPattern: try attribute.u32Value()))
        }
    }
}
